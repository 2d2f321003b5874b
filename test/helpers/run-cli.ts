import { main } from '../../cli/main.js';

/** Runs `propintel argv` in process and collects what it printed and its exit code. */
export async function runCli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), shutdown: new Promise(() => {}) });
  return { code, stdout, stderr };
}
