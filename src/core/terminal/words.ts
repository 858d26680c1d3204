/** How a count reads in a message: `1 object`, `3 objects`. */
export const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
