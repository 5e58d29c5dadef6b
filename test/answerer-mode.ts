// The resident answerer (src/answerer) in the suites: off (GIT_HANDOFF_ANSWERER=0, which every test's environment
// inherits) unless the run turns it on with GIT_HANDOFF_ANSWERER=1, as `npm run test:answerer` does: then a test's
// guard that finds none starts one for the test's HOME, as a user's would, and one idle 30 s stops. Read by every
// vitest config.
process.env.GIT_HANDOFF_ANSWERER = process.env.GIT_HANDOFF_ANSWERER === '1' ? '1' : '0';
if (process.env.GIT_HANDOFF_ANSWERER === '1') process.env.GIT_HANDOFF_ANSWERER_IDLE_MS ??= '30000';
export {};
