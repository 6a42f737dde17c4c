import { text } from "node:stream/consumers";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { createHash } from "node:crypto";
import { EncodedRecord, RecordBatch, streamJsonArray, type UploadProgress } from "./upload";

const progress = (): UploadProgress => ({ records: 0, bytes: 0, sha256: null });

describe("an upload body", () => {
  test("carries a record's JSON as it was made (for its hash), beside records encoded as they stream", async () => {
    const sent = progress();
    const body = await text(streamJsonArray<Record<string, number>>([new EncodedRecord('{"a":1,"made":"for the hash"}'), { b: 2 }], undefined, sent));
    expect(body).toBe('[{"a":1,"made":"for the hash"},{"b":2}]');
    expect(sent).toMatchObject({ records: 2, bytes: Buffer.byteLength(body) });
  });

  test("sends batches of records as the records they hold, in order, over chunks of the body, and digests the whole body", async () => {
    const sent = progress();
    const many = Array.from({ length: 30_000 }, (_, index) => ({ index, padding: "x".repeat(20) }));
    async function* batches() {
      yield new RecordBatch(many.slice(0, 10_000));
      yield new RecordBatch([]);
      yield new EncodedRecord(JSON.stringify(many[10_000]));
      yield new RecordBatch(many.slice(10_001));
    }
    const body = await text(streamJsonArray(batches, undefined, sent));
    expect(JSON.parse(body)).toEqual(many);
    expect(sent).toMatchObject({ records: 30_000, bytes: Buffer.byteLength(body), sha256: createHash("sha256").update(body).digest("hex") });
  });

  test("with a schema, checks the record the JSON holds and sends what the schema passed", async () => {
    const schema = z.object({ a: z.number() });
    const body = await text(streamJsonArray([new EncodedRecord('{"a":1,"extra":true}')], schema, progress()));
    expect(body).toBe('[{"a":1}]');
    await expect(text(streamJsonArray([new EncodedRecord('{"a":"one"}')], schema, progress()))).rejects.toThrow(
      "Record 0 does not match the upstream record schema",
    );
  });
});
