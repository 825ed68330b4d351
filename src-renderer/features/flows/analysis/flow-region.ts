/** The lines of one flow in a block-style `flows:` mapping, as offsets into the text. */
export interface FlowRegion {
  name: string;
  /** Start of the flow's key line. */
  start: number;
  /** Where its name starts on that line. */
  keyStart: number;
  end: number;
}

const SECTION = 'flows:';

/**
 * The flows of a definition file found by indentation alone, so one flow can be read from its
 * own few lines rather than a parse of the whole file. Undefined when the file is not laid out
 * plainly enough to tell (flow-style `flows: {…}`, tabs, a second `flows:`); the caller then
 * parses the whole text.
 */
export function flowRegions(text: string): FlowRegion[] | undefined {
  const regions: FlowRegion[] = [];
  let pos = 0;
  let inSection = false;
  let sections = 0;
  let indent = -1;
  const close = (at: number): void => {
    const last = regions.at(-1);
    if (last && last.end < 0) last.end = at;
  };
  for (const line of text.split('\n')) {
    const lineStart = pos;
    pos += line.length + 1;
    if (line.includes('\t')) return undefined;
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const lead = line.length - trimmed.length;
    if (lead === 0) {
      close(lineStart);
      inSection = line.trimEnd() === SECTION;
      if (inSection && ++sections > 1) return undefined;
      if (!inSection && /^flows\s*:/.test(line)) return undefined;
      continue;
    }
    if (!inSection) continue;
    if (indent < 0) indent = lead;
    if (lead < indent) return undefined;
    if (lead > indent) continue;
    const key = /^([^\s#'"{[][^:]*):\s*$/.exec(trimmed);
    if (!key) return undefined;
    close(lineStart);
    regions.push({ name: key[1], start: lineStart, keyStart: lineStart + lead, end: -1 });
  }
  close(text.length);
  return regions;
}

/** The flow whose lines hold `offset`, when the layout tells. */
export function flowRegionAt(text: string, offset: number): FlowRegion | undefined {
  return flowRegions(text)?.find((r) => offset >= r.start && offset <= r.end);
}
