"use client";

import { useRef, type ReactNode } from "react";
import { Button, type ButtonProps } from "./button";

/** A button that asks first, in a native modal <dialog> (focus trapped, Escape closes). */
export function ConfirmDialog({
  trigger,
  title,
  children,
  confirmLabel,
  onConfirm,
  variant = "destructive",
  disabled,
}: {
  trigger: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  variant?: ButtonProps["variant"];
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = `${trigger.replace(/\W+/g, "-").toLowerCase()}-dialog-title`;
  return (
    <>
      <Button variant="secondary" onClick={() => dialog.current?.showModal()} disabled={disabled}>
        {trigger}
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto max-w-md rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="flex flex-col gap-3 p-5">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          <div className="text-sm text-slate-700">{children}</div>
          <div className="mt-2 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </Button>
            <Button
              variant={variant}
              onClick={() => {
                dialog.current?.close();
                onConfirm();
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
