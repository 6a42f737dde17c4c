"use client";

import { useSyncExternalStore } from "react";

/** The engineer's choice to read every time in UTC, kept in this browser (localStorage) and shared by every <Time>. */
const STORAGE_KEY = "location-sync.times-in-utc";
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => event.key === STORAGE_KEY && listener();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

function readPreference(): boolean {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === "1";
  } catch {
    return false;
  }
}

export function setTimesInUtc(utc: boolean) {
  try {
    if (utc) window.localStorage.setItem(STORAGE_KEY, "1");
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    // A browser that refuses storage keeps the choice for this page only.
  }
  for (const listener of listeners) listener();
}

/** True when times show in UTC; the server (and the first render) always shows the location's time. */
export function useTimesInUtc(): boolean {
  return useSyncExternalStore(subscribe, readPreference, () => false);
}
