/** Reads a secret piped on standard input (never from a flag: flags land in shell history and `ps`). */
export async function readSecretFromStdin(what: string): Promise<string> {
  if (process.stdin.isTTY) throw new Error(`Pipe the ${what} on standard input, e.g. printf '%s' "$PASSWORD" | npm run cli -- ...`);
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const value = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
  if (!value) throw new Error(`No ${what} on standard input.`);
  return value;
}
