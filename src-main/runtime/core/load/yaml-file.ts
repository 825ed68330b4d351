import { LineCounter, parseDocument, isScalar, Scalar, type Document, type Node } from 'yaml';
import type { LoadProblem, SourceLocation } from '../errors.ts';

/** A parsed definition file that can say where any of its nodes is. */
export class YamlFile {
  readonly doc: Document.Parsed;
  private readonly lines = new LineCounter();

  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    // YAML 1.1 timestamps are enabled on purpose: an unquoted `2025-09-03` must be recognisable
    // as a date so the loader can tell the user to quote it, instead of guessing.
    this.doc = parseDocument(text, { lineCounter: this.lines, customTags: ['timestamp'], keepSourceTokens: true, uniqueKeys: true });
  }

  at(node: Node | null | undefined, offsetInNode = 0): SourceLocation {
    const start = node?.range?.[0] ?? 0;
    return this.locate(start + offsetInNode);
  }

  locate(offset: number): SourceLocation {
    const pos = this.lines.linePos(offset);
    return { file: this.file, line: pos.line, col: pos.col };
  }

  /** Location of a character inside a scalar's value, accounting for quotes and block scalars. */
  inScalar(node: Node, valueOffset: number): SourceLocation {
    if (!isScalar(node) || !node.range) return this.at(node);
    const type = node.type;
    const start = node.range[0];
    if (type === Scalar.PLAIN) return this.locate(start + valueOffset);
    if (type === Scalar.QUOTE_DOUBLE || type === Scalar.QUOTE_SINGLE) return this.locate(start + 1 + valueOffset);
    // Block scalar: find the n-th line of the value in the raw text after the header line.
    const value = String(node.value);
    const lineIndex = value.slice(0, valueOffset).split('\n').length - 1;
    const colInLine = valueOffset - (value.lastIndexOf('\n', valueOffset - 1) + 1);
    const raw = this.text.slice(start, node.range[1]);
    const rawLines = raw.split('\n');
    const contentLines = rawLines.slice(1);
    const target = contentLines[lineIndex] ?? '';
    const indent = target.length - target.trimStart().length;
    const lineOffset = rawLines[0].length + 1 + contentLines.slice(0, lineIndex).reduce((n, l) => n + l.length + 1, 0);
    return this.locate(start + lineOffset + indent + colInLine);
  }

  /** Syntax errors of the file itself, with their positions. */
  syntaxProblems(): LoadProblem[] {
    return this.doc.errors.map((e) => ({
      location: { file: this.file, line: e.linePos?.[0]?.line ?? 1, col: e.linePos?.[0]?.col ?? 1 },
      path: '',
      message: `YAML syntax: ${e.message.split('\n')[0]}`,
    }));
  }
}
