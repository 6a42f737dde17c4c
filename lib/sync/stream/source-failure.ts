import { DomainError } from "@/lib/errors/domain-error";
import { describeErrorForLog } from "@/lib/logging/safe-error";
import { SourceQueryError } from "@/lib/source/source-queries";
import { UploadSourceError } from "@/lib/upstream/errors";
import { isSessionStop } from "../session-fence";

/**
 * A failed read of the management system while a step sends: what the operator can act on (a SQL file that breaks the
 * contract, a missing source key) is said; anything else is logged and named by its class only, as the preview does.
 * A read the session's stop ended (lib/sync/session-fence.ts `stopped`) is that stop, not a failure.
 */
export function sourceFailure(error: unknown, step: string): Error {
  if (error instanceof UploadSourceError || isSessionStop(error)) return error;
  if (error instanceof SourceQueryError || error instanceof DomainError)
    return new UploadSourceError(`Reading the ${step} from the source failed: ${error.message}`);
  console.error(`[sync] reading the ${step} from the source failed: ${describeErrorForLog(error)}`);
  return new UploadSourceError(`Reading the ${step} from the source failed (${error instanceof Error ? error.name : "error"}, logged)`);
}

/** The records of `read`, with a failed source read turned into a sourceFailure (the upload stops, nothing is retried blindly). */
export async function* guardedRead<T>(read: AsyncIterable<T>, step: string): AsyncGenerator<T> {
  try {
    yield* read;
  } catch (error) {
    throw sourceFailure(error, step);
  }
}
