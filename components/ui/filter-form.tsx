"use client";

import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState, useSyncExternalStore, useTransition, type FormEvent, type ReactNode } from "react";
import { Button } from "./button";

const TYPING_PAUSE_MS = 350;

/**
 * Filters that live in the URL and apply as they are chosen: a select at once, a search once typing pauses (the page
 * is rendered again on the server with the new parameters). Without JavaScript it is a plain GET form with Apply;
 * once the page is interactive the button is only there for the Enter key and screen readers.
 */
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
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // The fields are uncontrolled (they work without JavaScript): a navigation from elsewhere (a tile's link, Back)
  // mounts them again with the new URL's values; one this form made keeps them, and the focus, as they are.
  const search = useSearchParams().toString();
  const [seen, setSeen] = useState(search);
  const [applied, setApplied] = useState<string | null>(null);
  const [fieldsKey, setFieldsKey] = useState(search);
  if (search !== seen) {
    setSeen(search);
    if (search !== applied) setFieldsKey(search);
  }
  // False in the server's HTML, true once hydrated.
  const interactive = useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
  const typing = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(typing.current), []);

  function apply(form: HTMLFormElement) {
    window.clearTimeout(typing.current);
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (typeof value === "string" && value.trim() !== "") params.set(key, value);
    const next = params.toString();
    setApplied(next);
    startTransition(() => router.replace(next ? `${action}?${next}` : action, { scroll: false }));
  }

  function changed(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const typed = event.target instanceof HTMLInputElement && (event.target.type === "search" || event.target.type === "text");
    window.clearTimeout(typing.current);
    if (typed) typing.current = window.setTimeout(() => apply(form), TYPING_PAUSE_MS);
    else apply(form);
  }

  return (
    <form
      key={fieldsKey}
      method="get"
      action={action}
      role="search"
      aria-label={label}
      aria-busy={pending}
      className={`grid gap-3 sm:items-end ${columns}`}
      onChange={changed}
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget);
      }}
    >
      {children}
      <Button type="submit" className={interactive ? "sr-only" : undefined}>
        Apply
      </Button>
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
