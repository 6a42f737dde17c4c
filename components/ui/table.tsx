import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "@/lib/utils";

export function Table({ className, ...props }: HTMLAttributes<HTMLTableElement>) {
  return (
    // Focusable, so that a keyboard can scroll a table wider than the screen (axe: scrollable-region-focusable).
    <div className="w-full overflow-x-auto" tabIndex={0}>
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}
export const TableHeader = (props: HTMLAttributes<HTMLTableSectionElement>) => <thead className="border-b border-slate-200" {...props} />;
export const TableBody = (props: HTMLAttributes<HTMLTableSectionElement>) => <tbody className="divide-y divide-slate-100" {...props} />;
export const TableRow = ({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) => (
  <tr className={cn("hover:bg-slate-50", className)} {...props} />
);
export const TableHead = ({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) => (
  <th scope="col" className={cn("px-3 py-2 text-left font-medium text-slate-700", className)} {...props} />
);
export const TableCell = ({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) => (
  <td className={cn("px-3 py-2 align-top text-slate-900", className)} {...props} />
);
