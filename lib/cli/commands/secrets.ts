import type { Command } from "commander";
import { getDatabase } from "@/db/client";
import { runSecretsRotation } from "@/lib/crypto/rotate-secrets";
import { systemContext } from "@/lib/operations/context";
import { runWithDatabase } from "../run-with-database";
import { jsonForTerminal } from "../terminal-output";

export function register(program: Command) {
  program
    .command("secrets:rotate")
    .summary("re-encrypt every stored secret under the current key")
    .description(
      "re-encrypt every stored secret under the current key. With APP_SECRET_KEY: set the new key there and the old one in APP_SECRET_KEY_PREVIOUS first. Embedded default: a new key is generated in DATA_DIR/secret-keys.json.",
    )
    .option("--json", "print the result as JSON")
    .action(async (options: { json?: boolean }) => {
      await runWithDatabase(async () => {
        const result = await runSecretsRotation(systemContext(getDatabase(), "cli", "cli"));
        if (options.json) {
          console.log(jsonForTerminal(result, 2));
          return;
        }
        console.log(`Current key: ${result.currentKeyId}`);
        for (const [column, count] of Object.entries(result.reencrypted)) {
          console.log(`${column}: ${count} re-encrypted, ${result.unchanged[column] ?? 0} already under the current key`);
        }
        if (result.droppedKeyIds.length) console.log(`Removed unused keys from the key file: ${result.droppedKeyIds.join(", ")}`);
      });
    });
}
