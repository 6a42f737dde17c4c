"use client";

import { useEffect, useRef, useState, type HTMLAttributes } from "react";
import { cn } from "@/lib/utils";

/**
 * A box that scrolls sideways on its own, so a wide table never widens the page. Once its content is wider
 * than it, it becomes a tab stop (with a visible focus ring) so keyboard users can scroll it too.
 * `contain: inline-size` keeps the content's width out of the box's own size, so that a grid or flex parent
 * does not grow to the table's width either; `relative` keeps absolutely placed descendants (screen-reader-only
 * text) inside it, where they would otherwise widen the page from the table's far end.
 */
export function ScrollRegion({ className, children, ...props }: HTMLAttributes<HTMLDivElement>) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollable, setScrollable] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setScrollable(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={box}
      tabIndex={scrollable ? 0 : undefined}
      data-scrollable={scrollable || undefined}
      className={cn(
        "relative w-full max-w-full overflow-x-auto rounded-sm [contain:inline-size] focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2",
        className,
      )}
      {...props}
    >
      {children}
    </div>
  );
}
