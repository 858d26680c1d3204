/**
 * Sets a field as an own property, whatever its name: a plain assignment to `__proto__` would set
 * the object's prototype instead, and the field would vanish from what is sent or printed.
 */
export const setOwnField = (object: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
