import { SearchXIcon, type LucideIcon } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/**
 * What an empty list means, in one sentence, with the obvious next action when the viewer may take it
 * (the caller decides with `can`, and passes no action otherwise).
 */
export function EmptyState({
  icon: Icon,
  message,
  action,
  className,
}: {
  icon: LucideIcon;
  message: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  return (
    <div data-testid="empty-state" className={cn("flex flex-col items-center gap-3 px-4 py-10 text-center", className)}>
      <span className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-600">
        <Icon aria-hidden="true" className="size-6" />
      </span>
      <p className="max-w-md text-sm text-slate-700">{message}</p>
      {action ? <div className="flex flex-wrap justify-center gap-2">{action}</div> : null}
    </div>
  );
}

/** A list empty only because of its filters: says so, and offers the list without them. */
export function FilteredEmptyState({ message, clearHref }: { message: ReactNode; clearHref: string }) {
  return (
    <EmptyState
      icon={SearchXIcon}
      message={message}
      action={
        <Link href={clearHref} className={buttonVariants({ variant: "secondary" })}>
          Clear filters
        </Link>
      }
    />
  );
}
