import { Input, Select } from "./input";
import { Label } from "./label";

// The fields of a FilterForm (filter-form.tsx): plain inputs named as the URL parameters they set.

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
