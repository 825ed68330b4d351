/** A count with its noun, singular for one: "1 run", "2 runs", "1,024 bytes". */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
}
