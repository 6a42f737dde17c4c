import type { Metadata } from "next";
import { PageHeader } from "@/components/layout/page-header";
import { propertiesOf, schemaSummary } from "@/components/api-docs/schema-summary";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { buildApiDocument, type OpenApiOperation } from "@/lib/api-docs/api-document";
import { requirePageUser } from "@/lib/auth/guard";

export const metadata: Metadata = { title: "API reference" };

const methodTone = { get: "info", post: "success", put: "warning", patch: "warning", delete: "danger" } as const;

/** The document's descriptions mark code with backticks (CommonMark); here only that is rendered. */
function Described({ text }: { text: string }) {
  return text.split("`").map((part, index) =>
    index % 2 ? (
      <code key={index} className="text-xs">
        {part}
      </code>
    ) : (
      part
    ),
  );
}

function SchemaLink({ schema }: { schema: Record<string, unknown> | undefined }) {
  const summary = schemaSummary(schema);
  const ref = typeof schema?.$ref === "string" ? schema.$ref.split("/").at(-1) : undefined;
  return ref ? (
    <a className="text-blue-700 underline" href={`#schema-${ref}`}>
      {summary}
    </a>
  ) : (
    <code className="text-xs">{summary}</code>
  );
}

function OperationCard({ method, path, operation }: { method: string; path: string; operation: OpenApiOperation }) {
  const body = operation.requestBody?.content["application/json"]?.schema;
  return (
    <Card id={operation.operationId} className="mb-4">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          <Badge tone={methodTone[method as keyof typeof methodTone] ?? "neutral"}>{method.toUpperCase()}</Badge>
          <code className="break-all">{path}</code>
        </CardTitle>
        <p className="text-sm text-slate-700">
          <Described text={operation.summary} />
        </p>
        <p className="text-xs text-slate-600">
          Permission: <code>{operation["x-permission"]}</code>
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {operation.parameters.length ? (
          <Table aria-label={`Parameters of ${method.toUpperCase()} ${path}`}>
            <TableHeader>
              <TableRow>
                <TableHead>Parameter</TableHead>
                <TableHead>In</TableHead>
                <TableHead>Type</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {operation.parameters.map((parameter) => (
                <TableRow key={`${parameter.in}-${parameter.name}`}>
                  <TableCell>
                    <code>{parameter.name}</code>
                    {parameter.required ? <span className="ml-1 text-xs text-slate-600">required</span> : null}
                  </TableCell>
                  <TableCell>{parameter.in}</TableCell>
                  <TableCell>
                    <SchemaLink schema={parameter.schema} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
        {body ? (
          <p>
            Body{operation.requestBody?.required ? "" : " (optional)"}: <SchemaLink schema={body} />
          </p>
        ) : null}
        {Object.entries(operation.responses)
          .filter(([status]) => status !== "default")
          .map(([status, response]) => {
            const [contentType, content] = Object.entries(response.content ?? {})[0] ?? [];
            return (
              <p key={status}>
                {status}: <Described text={response.description} />
                {content ? (
                  <>
                    {" "}
                    · {contentType} <SchemaLink schema={content.schema} />
                  </>
                ) : null}
              </p>
            );
          })}
      </CardContent>
    </Card>
  );
}

export default async function ApiReferencePage() {
  await requirePageUser({ action: "api.docs.view" });
  const document = buildApiDocument();
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
  const tags = [...new Set(operations.map(({ operation }) => operation.tags[0]!))];
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            {document.info.description} The same document as OpenAPI 3.1:{" "}
            <a className="text-blue-700 underline" href="/api/openapi.json">
              /api/openapi.json
            </a>
            .
          </>
        }
      />
      {tags.map((tag) => (
        <section key={tag} aria-labelledby={`tag-${tag.replace(/\W+/g, "-")}`} className="mb-6">
          <h2 id={`tag-${tag.replace(/\W+/g, "-")}`} className="mb-3 text-lg font-semibold">
            {tag}
          </h2>
          {operations
            .filter(({ operation }) => operation.tags[0] === tag)
            .map(({ path, method, operation }) => (
              <OperationCard key={`${method} ${path}`} method={method} path={path} operation={operation} />
            ))}
        </section>
      ))}
      <section aria-labelledby="schemas" className="mb-6">
        <h2 id="schemas" className="mb-3 text-lg font-semibold">
          Schemas
        </h2>
        {Object.entries(document.components.schemas).map(([name, schema]) => (
          <Card key={name} id={`schema-${name}`} className="mb-4">
            <CardHeader>
              <CardTitle className="text-base">
                <code>{name}</code>
              </CardTitle>
            </CardHeader>
            <CardContent className="text-sm">
              {propertiesOf(schema).length ? (
                <Table aria-label={`Fields of ${name}`}>
                  <TableHeader>
                    <TableRow>
                      <TableHead>Field</TableHead>
                      <TableHead>Type</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {propertiesOf(schema).map((property) => (
                      <TableRow key={property.name}>
                        <TableCell>
                          <code>{property.name}</code>
                          {property.required ? <span className="ml-1 text-xs text-slate-600">required</span> : null}
                        </TableCell>
                        <TableCell>
                          <SchemaLink schema={property.schema} />
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              ) : (
                <p>{schemaSummary(schema)}</p>
              )}
              <details className="mt-2">
                <summary className="cursor-pointer text-slate-700">JSON Schema</summary>
                <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-50 p-2 text-xs">{JSON.stringify(schema, null, 2)}</pre>
              </details>
            </CardContent>
          </Card>
        ))}
      </section>
    </>
  );
}
