"use client";

import type { ReactNode } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "./alert-dialog";
import { Button, type ButtonProps } from "./button";

/**
 * The one confirmation of the dashboard: a button that asks first, in an AlertDialog. Every destructive or
 * role-changing action goes through it; its outcome is told in a toast (lib/ui toasts via sonner).
 * Controlled (`open`, `onOpenChange`, no `trigger`) when something other than a button opens it, e.g. a select.
 */
export function ConfirmDialog({
  trigger,
  triggerVariant = "secondary",
  triggerLabel,
  title,
  children,
  confirmLabel,
  onConfirm,
  variant = "destructive",
  disabled,
  open,
  onOpenChange,
}: {
  trigger?: string;
  triggerVariant?: ButtonProps["variant"];
  /** The trigger's accessible name when its text alone is ambiguous in a list. */
  triggerLabel?: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  variant?: "default" | "destructive";
  disabled?: boolean;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      {trigger ? (
        <AlertDialogTrigger asChild>
          <Button variant={triggerVariant} disabled={disabled} aria-label={triggerLabel}>
            {trigger}
          </Button>
        </AlertDialogTrigger>
      ) : null}
      <AlertDialogContent>
        <AlertDialogTitle>{title}</AlertDialogTitle>
        <AlertDialogDescription>
          <div>{children}</div>
        </AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant={variant} onClick={onConfirm}>
            {confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
