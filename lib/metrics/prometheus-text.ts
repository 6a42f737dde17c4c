/** One metric family in the Prometheus text exposition format (version 0.0.4). */
export type MetricFamily =
  | { name: string; help: string; type: "counter" | "gauge"; samples: Array<{ labels: Record<string, string>; value: number }> }
  | {
      name: string;
      help: string;
      type: "histogram";
      buckets: readonly number[];
      series: Array<{ labels: Record<string, string>; cumulative: number[]; sum: number; count: number }>;
    };

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const escapeHelp = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function labelText(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  return entries.length ? `{${entries.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(",")}}` : "";
}

const numberText = (value: number) => (Number.isFinite(value) ? String(value) : value > 0 ? "+Inf" : value < 0 ? "-Inf" : "NaN");

export function prometheusText(families: MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    if (family.type !== "histogram") {
      for (const sample of family.samples) lines.push(`${family.name}${labelText(sample.labels)} ${numberText(sample.value)}`);
      continue;
    }
    for (const series of family.series) {
      family.buckets.forEach((bound, index) => {
        lines.push(`${family.name}_bucket${labelText({ ...series.labels, le: String(bound) })} ${series.cumulative[index] ?? 0}`);
      });
      lines.push(`${family.name}_bucket${labelText({ ...series.labels, le: "+Inf" })} ${series.count}`);
      lines.push(`${family.name}_sum${labelText(series.labels)} ${numberText(series.sum)}`);
      lines.push(`${family.name}_count${labelText(series.labels)} ${series.count}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
