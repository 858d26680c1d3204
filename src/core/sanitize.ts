/**
 * Text that came from the server or from input files is made safe for a terminal: control
 * characters are shown in caret notation (ESC becomes ^[), so nothing can move the cursor,
 * recolour or retitle the user's terminal. Tab and newline are kept.
 */
export function sanitizeForTerminal(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f]/g, (char) => {
    const code = char.charCodeAt(0);
    if (code === 0x7f) return '^?';
    if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
