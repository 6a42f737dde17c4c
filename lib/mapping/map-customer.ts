import type { CustomerRow } from "@/lib/source/source-rows";
import type { ContactDetailRecord } from "@/lib/upstream/records";
import { checkedRow, rejectedRow, withoutUndefined } from "./mapped-row";
import type { MappedRow, MappingContext } from "./mapping-types";
import { normaliseBirthdate } from "./normalisers/birthdate";
import { normaliseEmail } from "./normalisers/email";
import { normaliseGender } from "./normalisers/gender";
import { normaliseIdentifier, requireExternalId } from "./normalisers/identifier";
import { normalisePhone } from "./normalisers/phone";
import { normaliseClearableText } from "./normalisers/text";

function booleanOf(value: boolean | null | undefined): boolean | undefined {
  return typeof value === "boolean" ? value : undefined;
}

/**
 * A customer → a contact detail. Unusable contact fields are dropped with a warning; the contact is still sent.
 * Emptied text fields are sent as "" so the upstream clears them; a channel without a usable address (e-mail,
 * mobile) is sent unsubscribed whatever the opt-in says, so nobody is marketed through it.
 */
export function mapCustomer(row: CustomerRow, ctx: MappingContext): MappedRow<ContactDetailRecord> {
  const sourceId = normaliseIdentifier(row.id) ?? "";
  const externalId = requireExternalId(row.id);
  if (externalId.value === undefined) return rejectedRow(sourceId, externalId.issues);
  const email = normaliseEmail(row.email);
  const phone = normalisePhone(row.phone, ctx.country);
  const birthdate = normaliseBirthdate(row.birthdate, ctx);
  const gender = normaliseGender(row.gender);
  // Keys in ascending order, so that the record is its own canonical form (lib/mapping/record-hash.ts hashes it without
  // copying it).
  const record = withoutUndefined({
    active_membership: booleanOf(row.member),
    address_line_1: normaliseClearableText(row.address_line_1),
    address_line_2: normaliseClearableText(row.address_line_2),
    birthdate: birthdate.value,
    city: normaliseClearableText(row.city),
    email: email.value,
    email_subscribed: email.value === undefined ? false : booleanOf(row.email_opt_in),
    external_id: externalId.value,
    first_name: normaliseClearableText(row.first_name),
    gender: gender.value,
    last_name: normaliseClearableText(row.last_name),
    mobile_phone_number: phone.value,
    postal_code: normaliseClearableText(row.postal_code),
    text_message_subscribed: phone.value === undefined ? false : booleanOf(row.sms_opt_in),
  });
  const issues = [...email.issues, ...phone.issues, ...birthdate.issues, ...gender.issues];
  return checkedRow("contact_details", sourceId, record, issues, ctx);
}
