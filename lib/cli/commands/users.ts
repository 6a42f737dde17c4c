import type { Command } from "commander";
import { getDatabase } from "@/db/client";
import { NewPassword } from "@/lib/auth/passwords";
import { DomainError } from "@/lib/errors/domain-error";
import { systemContext } from "@/lib/operations/context";
import { createUser } from "@/lib/users/create-user";
import { CreateUserInput } from "@/lib/users/user-inputs";
import { readSecretFromStdin } from "../read-stdin";
import { runWithDatabase } from "../run-with-database";
import { forTerminal, jsonForTerminal } from "../terminal-output";

export function register(program: Command) {
  program
    .command("user:create")
    .description("create a dashboard user; the password is read from standard input")
    .requiredOption("--email <email>", "the user's email")
    .requiredOption("--role <role>", "admin | support | engineer | owner")
    .option("--name <name>", "display name", "")
    .option("--json", "print the result as JSON")
    .action(async (options: { email: string; role: string; name: string; json?: boolean }) => {
      await runWithDatabase(async () => {
        const input = CreateUserInput.safeParse({ email: options.email, role: options.role, name: options.name });
        if (!input.success)
          throw new DomainError("INVALID", input.error.issues.map((issue) => `--${issue.path.join(".")}: ${issue.message}`).join("; "));
        const password = NewPassword.safeParse(await readSecretFromStdin("password"));
        if (!password.success) throw new DomainError("INVALID", `password: ${password.error.issues[0]?.message}`);
        const user = await createUser(systemContext(getDatabase(), "cli"), { ...input.data, password: password.data });
        console.log(
          options.json
            ? jsonForTerminal({ id: user.id, email: user.email, role: user.role })
            : `Created ${user.role} ${forTerminal(user.email)} (${user.id})`,
        );
      });
    });
}
