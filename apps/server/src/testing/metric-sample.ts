/** One sample's value from Prometheus's text format, by metric name and label text (as printed, braces included). */
export function metricSample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}
