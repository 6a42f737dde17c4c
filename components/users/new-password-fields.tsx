import { FieldError } from "@/components/ui/alert";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** The new password and its repetition: the invite, reset and change-password forms. */
export function NewPasswordFields({ fieldErrors }: { fieldErrors: Record<string, string> }) {
  return (
    <>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="password">New password</Label>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          aria-invalid={Boolean(fieldErrors.password)}
          aria-describedby="password-hint password-error"
        />
        <p id="password-hint" className="text-xs text-slate-600">
          At least 12 characters.
        </p>
        <FieldError id="password-error" message={fieldErrors.password} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="passwordConfirmation">Repeat the password</Label>
        <Input
          id="passwordConfirmation"
          name="passwordConfirmation"
          type="password"
          autoComplete="new-password"
          aria-invalid={Boolean(fieldErrors.passwordConfirmation)}
          aria-describedby="passwordConfirmation-error"
        />
        <FieldError id="passwordConfirmation-error" message={fieldErrors.passwordConfirmation} />
      </div>
    </>
  );
}
