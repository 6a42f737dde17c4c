import type { Command } from "commander";
import { z } from "zod";
import { getDatabase } from "@/db/client";
import { DomainError } from "@/lib/errors/domain-error";
import { generateDemoSource, type DemoSourceOptions } from "@/lib/source/demo/generate-demo-source";
import { runWithDatabase } from "../run-with-database";
import { forTerminal, jsonForTerminal } from "../terminal-output";

const wholeNumber = (minimum: number, maximum: number) =>
  z.coerce
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(minimum, { error: `must be at least ${minimum}` })
    .max(maximum, { error: `must be at most ${maximum}` });

const SeedOptions = z.object({
  locations: wholeNumber(1, 1000),
  contacts: wholeNumber(0, 10_000_000),
  years: wholeNumber(0, 50),
  seed: wholeNumber(0, 2 ** 31 - 1),
});

interface SeedFlags {
  locations: string;
  contacts: string;
  years: string;
  seed: string;
  json?: boolean;
}

function parseSeedFlags({ locations, contacts, years, seed }: SeedFlags): DemoSourceOptions {
  const parsed = SeedOptions.safeParse({ locations, contacts, years, seed });
  if (parsed.success) return parsed.data;
  throw new DomainError(
    "INVALID",
    "no demo data was generated:",
    parsed.error.issues.map((issue) => ({ field: `--${String(issue.path[0])}`, reason: issue.message })),
  );
}

export function register(program: Command) {
  program
    .command("demo:seed")
    .description("generate messy demo management-system data into the demo_source schema (replacing what those source keys held)")
    .option("--locations <n>", "how many locations (source keys demo-<seed>-1 … demo-<seed>-<n>)", "1")
    .option("--contacts <n>", "customers per location", "300")
    .option("--years <n>", "years of past appointments (about six months of future ones come on top)", "2")
    .option("--seed <n>", "the same seed on the same day gives the same data", "1")
    .option("--json", 'print {"sourceKeys": [...]}')
    .action(async (options: SeedFlags) => {
      await runWithDatabase(async () => {
        const sourceKeys = await generateDemoSource(getDatabase(), parseSeedFlags(options));
        console.log(options.json ? jsonForTerminal({ sourceKeys }) : sourceKeys.map(forTerminal).join("\n"));
      });
    });
}
