// Standard output and error as plain file descriptors where they are pipes or files (an agent's tool call, a
// script, the bench): node's stream object for a pipe loads its net and stream machinery, about 5 ms of CPU for
// every command. Terminals (and other character devices) keep node's streams.
import { EventEmitter } from 'node:events';
import { fstatSync } from 'node:fs';
import { writeAllSync } from '../guard/io';

type Done = (error?: Error | null) => void;

/** The part of a writable stream the CLI and its libraries use (write, error events), written synchronously. */
class FdWriter extends EventEmitter {
  readonly isTTY = false;
  readonly writable = true;
  constructor(readonly fd: number) {
    super();
  }
  write(chunk: string | Uint8Array, encoding?: BufferEncoding | Done, cb?: Done): boolean {
    const done = typeof encoding === 'function' ? encoding : cb;
    try {
      writeAllSync(this.fd, typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : chunk);
    } catch (e) {
      // as a stream reports it: an `error` event (EPIPE: the reader is gone), and the callback
      process.nextTick(() => {
        done?.(e as Error);
        this.emit('error', e);
      });
      return false;
    }
    if (done) process.nextTick(done);
    return true;
  }
}

const isPipeOrFile = (fd: number): boolean => {
  try {
    const st = fstatSync(fd);
    return st.isFIFO() || st.isFile() || st.isSocket();
  } catch {
    return false;
  }
};

/** Before anything touches process.stdout or process.stderr: a pipe or a file gets the plain writer. */
export function plainStdio(): void {
  for (const [name, fd] of [['stdout', 1], ['stderr', 2]] as const) {
    if (isPipeOrFile(fd)) Object.defineProperty(process, name, { value: new FdWriter(fd), configurable: true, enumerable: true, writable: true });
  }
}
