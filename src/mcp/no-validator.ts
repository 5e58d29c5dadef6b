// The SDK's JSON Schema validator (ajv, a third of dist/mcp.cjs) serves only elicitation answers and tool output
// schemas, neither of which this server uses: the build puts this in its place (scripts/build.mjs).
export class AjvJsonSchemaValidator {
  getValidator(): never {
    throw new Error('git-handoff mcp validates no JSON Schema: it asks for no elicitation and declares no output schema');
  }
}
