import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * One converter run: a child process (never work on the server's event loop) in its own process group, under
 * `prlimit --as` (its address space; an allocation past it fails and the tool exits) and a wall-clock limit (the whole
 * group is killed with SIGKILL when it passes, LibreOffice's soffice.bin included). Its output is bounded too: past
 * `maxOutputBytes` of stdout the group is killed.
 */
export type RunOptions = {
  timeMs: number;
  memoryBytes: number;
  cwd?: string;
  env?: Record<string, string>;
  /** Bytes of stdout kept (default 1 MB); more kills the process. */
  maxOutputBytes?: number;
  signal?: AbortSignal;
};

export type RunResult = { code: number | null; stdout: Buffer; stderr: string };

/** Why a run did not finish well: it took too long, used too much, printed too much, failed, or was cancelled. */
export class ConverterError extends Error {
  constructor(
    readonly reason: "timeout" | "output" | "exit" | "spawn" | "aborted" | "input",
    message: string,
  ) {
    super(message);
    this.name = "ConverterError";
  }
}

const PRLIMIT = "/usr/bin/prlimit";
const hasPrlimit = fs.existsSync(PRLIMIT);

export async function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const maxOutput = options.maxOutputBytes ?? 1024 * 1024;
  // prlimit sets the limit on itself and execs the tool, so the limit holds for everything the tool starts.
  const file = hasPrlimit ? PRLIMIT : command;
  const argv: string[] = hasPrlimit ? [`--as=${options.memoryBytes}`, "--core=0", "--", command, ...args] : [...args];
  const child = spawn(file, argv, {
    cwd: options.cwd,
    // A small, fixed environment: no secrets of the server reach a converter; one thread each (2 cores shared).
    env: {
      NODE_ENV: process.env.NODE_ENV,
      PATH: "/usr/local/bin:/usr/bin:/bin",
      LANG: "C.UTF-8",
      HOME: options.cwd ?? os.tmpdir(),
      OMP_THREAD_LIMIT: "1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const kill = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  let failure: ConverterError | null = null;
  const out: Buffer[] = [];
  let outBytes = 0;
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    outBytes += chunk.length;
    if (outBytes > maxOutput) {
      failure ??= new ConverterError("output", `${path.basename(command)} wrote more than ${maxOutput} bytes`);
      kill();
      return;
    }
    out.push(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    if (err.length < 4096) err += chunk.toString("utf8");
  });
  const timer = setTimeout(() => {
    failure ??= new ConverterError("timeout", `${path.basename(command)} ran longer than ${options.timeMs} ms`);
    kill();
  }, options.timeMs);
  const onAbort = () => {
    failure ??= new ConverterError("aborted", `${path.basename(command)} was cancelled`);
    kill();
  };
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", (error) => reject(new ConverterError("spawn", `${path.basename(command)}: ${error.message}`)));
      child.once("close", (status) => resolve(status));
    });
    // A tool that forked (soffice.bin) may leave its group behind: nothing of a run outlives it.
    kill();
    if (failure) throw failure;
    return { code, stdout: Buffer.concat(out), stderr: err };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** `run` that also requires exit status 0. */
export async function runOk(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    throw new ConverterError("exit", `${path.basename(command)} exited with ${result.code}: ${result.stderr.trim().slice(0, 500)}`);
  }
  return result;
}

/** A private temporary directory for one conversion (its input, its output, LibreOffice's profile), removed after. */
export async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "converter-"));
  try {
    return await work(dir);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
