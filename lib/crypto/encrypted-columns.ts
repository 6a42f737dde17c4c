/**
 * Every column that holds a sealed secret. Rotation re-encrypts exactly these, and
 * the "no plaintext in the database" test walks them: add a column here when you add one.
 */
export interface EncryptedColumn {
  table: string;
  /** Primary-key columns, to address one row. */
  keyColumns: string[];
  column: string;
  /** The additional authenticated data the value was sealed with, from the row's key. */
  context: (key: Record<string, string>) => string;
}

export const environmentSecretContext = {
  apiKey: (name: string) => `environments.api_key:${name}`,
  clientSecret: (name: string) => `environments.client_secret:${name}`,
};

export const locationTokenContext = (locationId: string) => `locations.token:${locationId}`;

/** The alert webhook URL may carry a secret token (Slack's do). */
export const alertWebhookUrlContext = "alert_channels.webhook_url:webhook";

export const encryptedColumns: EncryptedColumn[] = [
  { table: "locations", keyColumns: ["id"], column: "location_token_encrypted", context: (key) => locationTokenContext(key.id!) },
  { table: "environments", keyColumns: ["name"], column: "api_key_encrypted", context: (key) => environmentSecretContext.apiKey(key.name!) },
  {
    table: "environments",
    keyColumns: ["name"],
    column: "client_secret_encrypted",
    context: (key) => environmentSecretContext.clientSecret(key.name!),
  },
  { table: "alert_channels", keyColumns: ["kind"], column: "webhook_url_encrypted", context: (key) => `alert_channels.webhook_url:${key.kind!}` },
];

export function encryptedColumnLabel(column: EncryptedColumn): string {
  return `${column.table}.${column.column}`;
}
