import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "./button";
import { Input, Select } from "./input";
import { Label } from "./label";

/** A plain GET form: filters live in the URL and work without JavaScript. "Clear" shows once something is filtered. */
export function FilterForm({
  action,
  label,
  columns,
  filtered,
  children,
}: {
  action: string;
  label: string;
  columns: string;
  filtered: boolean;
  children: ReactNode;
}) {
  return (
    <form method="get" action={action} role="search" aria-label={label} className={`grid gap-3 sm:items-end ${columns}`}>
      {children}
      <Button type="submit">Apply</Button>
      {filtered ? (
        <Link href={action} className="text-sm text-blue-700 underline sm:self-center">
          Clear
        </Link>
      ) : (
        <span />
      )}
    </form>
  );
}

export function FilterSearch({ id, label, value, placeholder }: { id: string; label: string; value: string | undefined; placeholder: string }) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name="q" type="search" defaultValue={value ?? ""} placeholder={placeholder} />
    </div>
  );
}

/** A select whose empty "Any" option leaves the filter out. */
export function FilterSelect({
  id,
  name,
  label,
  value,
  options,
}: {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  options: readonly (readonly [string, string])[];
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} name={name} defaultValue={value ?? ""}>
        <option value="">Any</option>
        {options.map(([optionValue, optionLabel]) => (
          <option key={optionValue} value={optionValue}>
            {optionLabel}
          </option>
        ))}
      </Select>
    </div>
  );
}

export const environmentFilterOptions = [
  ["staging", "Staging"],
  ["production", "Production"],
] as const;
