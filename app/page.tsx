import { redirect } from "next/navigation";
import { requirePageUser } from "@/lib/auth/guard";

export default async function HomePage() {
  await requirePageUser();
  redirect("/locations");
}
