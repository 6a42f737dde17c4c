type JsonSchema = Record<string, unknown>;

/** A JSON schema in a few words for the API reference: `string (uuid)`, `"a" | "b"`, `array of SessionView`, `integer 1–200`. */
export function schemaSummary(schema: JsonSchema | undefined): string {
  if (!schema) return "any";
  if (typeof schema.$ref === "string") return schema.$ref.split("/").at(-1)!;
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    return [...new Set(((schema.anyOf ?? schema.oneOf) as JsonSchema[]).map(schemaSummary))].join(" | ");
  }
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.type === "array") return `array of ${schemaSummary(schema.items as JsonSchema | undefined)}`;
  if (schema.type === "object" && !schema.properties) return "object";
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : typeof schema.type === "string" ? schema.type : "any";
  const details = [
    typeof schema.format === "string" ? schema.format : null,
    schema.minimum !== undefined || schema.maximum !== undefined ? `${schema.minimum ?? "…"}–${schema.maximum ?? "…"}` : null,
    schema.minLength !== undefined || schema.maxLength !== undefined ? `${schema.minLength ?? 0}–${schema.maxLength ?? "…"} characters` : null,
    schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : null,
  ].filter(Boolean);
  return details.length ? `${type} (${details.join(", ")})` : type;
}

/** An object schema's properties, each with whether it is required. */
export function propertiesOf(schema: JsonSchema): Array<{ name: string; required: boolean; schema: JsonSchema }> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({ name, required: required.has(name), schema: property }));
}
