"use client";

import { ArrowRight } from "lucide-react";
import { useEffect, useRef, useState, type HTMLAttributes } from "react";
import { cn } from "@/lib/utils";

/** Shadows at the edges the content continues past: each fades once that edge is reached (the local layers cover it). */
const edgeShadows =
  "[background:linear-gradient(to_right,white_30%,rgb(255_255_255/0))_left/2.5rem_100%_no-repeat_local,linear-gradient(to_left,white_30%,rgb(255_255_255/0))_right/2.5rem_100%_no-repeat_local,radial-gradient(farthest-side_at_0_50%,rgb(15_23_42/0.12),transparent)_left/0.75rem_100%_no-repeat_scroll,radial-gradient(farthest-side_at_100%_50%,rgb(15_23_42/0.12),transparent)_right/0.75rem_100%_no-repeat_scroll]";

/**
 * A box that scrolls sideways on its own, so a wide table never widens the page. Once its content is wider
 * than it, it becomes a tab stop (with a visible focus ring) so keyboard users can scroll it too, its edges cast a
 * shadow where more content lies past them, and a line under it says so until its far end is reached.
 * `contain: inline-size` keeps the content's width out of the box's own size, so that a grid or flex parent
 * does not grow to the table's width either; `relative` keeps absolutely placed descendants (screen-reader-only
 * text) inside it, where they would otherwise widen the page from the table's far end.
 */
export function ScrollRegion({ className, children, ...props }: HTMLAttributes<HTMLDivElement>) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollable, setScrollable] = useState(false);
  const [moreToTheRight, setMoreToTheRight] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => {
      setScrollable(element.scrollWidth > element.clientWidth + 1);
      setMoreToTheRight(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener("scroll", measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener("scroll", measure);
    };
  }, []);
  return (
    <>
      <div
        ref={box}
        tabIndex={scrollable ? 0 : undefined}
        data-scrollable={scrollable || undefined}
        className={cn(
          "relative w-full max-w-full overflow-x-auto rounded-sm [contain:inline-size] focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:ring-offset-2",
          scrollable && edgeShadows,
          className,
        )}
        {...props}
      >
        {children}
      </div>
      {scrollable && moreToTheRight ? (
        // For sighted readers only: a screen reader reads every column of the table anyway.
        <p className="mt-1 flex items-center justify-end gap-1 text-xs text-slate-600" aria-hidden="true" data-testid="scroll-hint">
          Scroll sideways for more columns <ArrowRight className="size-3" />
        </p>
      ) : null}
    </>
  );
}
