/** The methods of a port: naming each one is required, so a method added to the port cannot be forgotten here. */
export type PortMethods<T> = { readonly [K in keyof T]: true };

/**
 * A port whose adapter is loaded and built on the first call of one of its methods. An SDK client
 * module costs 15 to 30 ms of cold start to load (docs/cost.md, "Functions"), and most functions
 * never call SES, S3 or CloudFront: they should not pay for them. A failed load is not kept.
 */
export function lazyPort<T extends object>(load: () => Promise<T>, methods: PortMethods<T>): T {
  let pending: Promise<T> | undefined;
  const adapter = (): Promise<T> => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  const port: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of Object.keys(methods)) {
    port[name] = async (...args) => {
      const target = (await adapter()) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      return target[name](...args);
    };
  }
  return port as unknown as T;
}
