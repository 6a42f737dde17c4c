"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { Alert, FieldError } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { CredentialsTestResult, type EnvironmentName } from "@/lib/environments/environment-inputs";
import { ApiProblem, mutateApi } from "@/lib/queries/api-mutation";

/**
 * Test credentials: the service checks an environment's API key and client credentials only with a user's login,
 * so the admin types one owner's email and password. They are read from the form on submit and cleared after,
 * never held in React state; the server sends them once and keeps nothing.
 */
export function TestCredentialsDialog({ name, title, disabled }: { name: EnvironmentName; title: string; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<CredentialsTestResult | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const id = (field: string) => `${name}-credentials-test-${field}`;
  const check = useMutation({
    mutationFn: async (login: { email: string; password: string }) =>
      CredentialsTestResult.parse(await mutateApi("POST", `/api/environments/${name}/credentials-test`, login)),
    onSuccess: (data) => {
      setResult(data);
      setFieldErrors({});
      if (data.ok) toast.success(`The ${title.toLowerCase()} credentials work.`);
      else toast.error(`The ${title.toLowerCase()} credentials test failed.`);
    },
    onError: (error) => {
      setResult(null);
      setFieldErrors(error instanceof ApiProblem ? error.fieldErrors : {});
      toast.error(error.message);
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const password = form.elements.namedItem("password");
    check.mutate({ email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") });
    // The password leaves the page with this request only.
    if (password instanceof HTMLInputElement) password.value = "";
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setResult(null);
          setFieldErrors({});
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary" disabled={disabled}>
          Test credentials
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogTitle>Test the {title.toLowerCase()} credentials</DialogTitle>
        <DialogDescription>
          The service checks the API key and the client ID and secret only together with a login. Type the email and password of one owner&apos;s
          account there: they are sent once to ask for a token, and neither they nor the token are kept or logged. Nothing else is sent.
        </DialogDescription>
        {result ? (
          <Alert tone={result.ok ? "success" : "error"} data-testid="credentials-test-result" data-outcome={result.outcome}>
            {result.message}
          </Alert>
        ) : null}
        <form onSubmit={onSubmit} noValidate aria-label={`Test the ${title.toLowerCase()} credentials`} className="flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={id("email")}>Owner&apos;s email at the service</Label>
            <Input
              id={id("email")}
              name="email"
              type="email"
              autoComplete="off"
              required
              aria-invalid={Boolean(fieldErrors.email)}
              aria-describedby={id("email-error")}
            />
            <FieldError id={id("email-error")} message={fieldErrors.email} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={id("password")}>Password</Label>
            <Input
              id={id("password")}
              name="password"
              type="password"
              autoComplete="off"
              required
              aria-invalid={Boolean(fieldErrors.password)}
              aria-describedby={id("password-error")}
            />
            <FieldError id={id("password-error")} message={fieldErrors.password} />
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="secondary">Close</Button>
            </DialogClose>
            <Button type="submit" disabled={check.isPending}>
              {check.isPending ? "Testing…" : "Test"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
