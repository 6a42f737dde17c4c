import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors/domain-error";
import { requestPreviewInputOf } from "./preview-inputs";

function refusal(body: string): DomainError {
  try {
    requestPreviewInputOf(body);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error(`accepted ${body}`);
}

describe("requestPreviewInputOf (POST /api/locations/[locationId]/preview)", () => {
  it("reads an empty body or {} as a refresh", () => {
    expect(requestPreviewInputOf("")).toEqual({ rebuild: false });
    expect(requestPreviewInputOf("  \n")).toEqual({ rebuild: false });
    expect(requestPreviewInputOf("{}")).toEqual({ rebuild: false });
    expect(requestPreviewInputOf('{"rebuild":false}')).toEqual({ rebuild: false });
  });

  it("reads { rebuild: true } as a rebuild", () => {
    expect(requestPreviewInputOf('{ "rebuild": true }')).toEqual({ rebuild: true });
  });

  it("refuses a malformed body as INVALID (422), never as an internal error", () => {
    expect(refusal("{rebuild")).toMatchObject({ code: "INVALID", fields: [{ field: "(body)", reason: "not valid JSON" }] });
    expect(refusal('{"rebuild":"yes"}')).toMatchObject({ code: "INVALID", fields: [{ field: "rebuild" }] });
    expect(refusal('{"rebuild":true,"force":true}')).toMatchObject({ code: "INVALID" });
    expect(refusal("[]")).toMatchObject({ code: "INVALID" });
    expect(refusal("null")).toMatchObject({ code: "INVALID" });
  });
});
