/**
 * Why a JSON body is not valid, if it is not: `{{variables}}` are filled in at send time, so
 * each stands for a value here (a quoted one is valid JSON already). The offset, when the parser
 * names one, is in the text as typed.
 */
export function jsonBodyProblem(text: string): { message: string; offset?: number } | undefined {
  if (text.trim() === '') return undefined;
  // Same length as what it replaces, so the parser's offsets point into the typed text.
  const filled = text.replace(/\{\{\s*[\w.-]+\s*\}\}/g, (m) => '0'.padEnd(m.length, ' '));
  try {
    JSON.parse(filled);
    return undefined;
  } catch (err) {
    const message = (err as Error).message;
    const at = /position (\d+)/.exec(message);
    return { message, ...(at ? { offset: Number(at[1]) } : {}) };
  }
}
