"use client";

import { signIn } from "next-auth/react";
import { Button } from "@/components/ui/button";

export function SingleSignOnButton({ providerId, callbackPath }: { providerId: string; callbackPath: string }) {
  return (
    <Button type="button" variant="secondary" className="w-full" onClick={() => void signIn(providerId, { callbackUrl: callbackPath })}>
      Sign in with your company account
    </Button>
  );
}
