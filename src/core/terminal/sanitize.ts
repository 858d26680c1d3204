/** How text from the server or from input files is made safe to show on a terminal. */

/** `\u009b`: the escape JSON itself uses, so it shows the code point and keeps JSON valid. */
const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text that came from the server or from input files is made safe for a terminal: control
 * characters are shown in caret notation (ESC becomes ^[), so nothing can move the cursor,
 * recolour or retitle the user's terminal. Tab and newline are kept; DEL is ^?, and a C1
 * control (U+0080–U+009F, which some terminals act on as ESC [ and the like) is \u0080.
 */
export function sanitizeForTerminal(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/g, (char) => {
    const code = char.charCodeAt(0);
    if (code === 0x7f) return '^?';
    if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
    return unicodeEscape(char);
  });
}

/**
 * DEL and the C1 controls as JSON escapes (`\u009b`), for data on its way to a terminal that is
 * otherwise safe already: JSON.stringify escapes the C0 controls but leaves these raw, and a
 * table's cells are sanitised. Inside a JSON string the escape means the same character, so the
 * JSON stays valid and equal; elsewhere it shows the code point, as sanitizeForTerminal does.
 */
export const escapeC1Controls = (text: string): string => text.replace(/[\u007f-\u009f]/g, unicodeEscape);

/**
 * sanitizeForTerminal for UTF-8 that arrives in chunks (a download), keeping CRLF line ends (a
 * CSV's) as they are. A CR alone stays ^M: it would return the cursor and let the rest of the
 * line hide what came before it. A CR that ends a chunk waits for the next, which may begin with
 * its LF; so does a character split between two chunks.
 */
export async function* sanitizeStreamForTerminal(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let held = '';
  for await (const chunk of chunks) {
    const text = held + decoder.decode(chunk, { stream: true });
    held = text.endsWith('\r') ? '\r' : '';
    yield sanitizeKeepingCrlf(text.slice(0, text.length - held.length));
  }
  const rest = held + decoder.decode();
  if (rest !== '') yield sanitizeKeepingCrlf(rest);
}

const sanitizeKeepingCrlf = (text: string) => text.split('\r\n').map(sanitizeForTerminal).join('\r\n');
