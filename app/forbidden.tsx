import Link from "next/link";

export default function Forbidden() {
  return (
    <main className="mx-auto max-w-md px-4 py-24 text-center">
      <h1 className="text-2xl font-semibold">Not allowed</h1>
      <p className="mt-2 text-slate-600">Your role does not give access to this page.</p>
      <Link className="mt-6 inline-block text-blue-700 underline" href="/locations">
        Back to locations
      </Link>
    </main>
  );
}
