// HTTP for webhook delivery: never follows redirects, and, unless private targets
// are allowed, checks every address a host name resolves to at connect time, so a
// name that resolves differently after registration (DNS rebinding) is caught too.
import dns from "node:dns";
import { Agent } from "undici";
import { isPrivateAddress } from "./address-policy.js";

export class PrivateAddressError extends Error {}

export function createWebhookAgent(allowPrivate: boolean): Agent {
  if (allowPrivate) return new Agent({ connections: 16 });
  const lookup: typeof dns.lookup = ((
    hostname: string,
    options: dns.LookupOptions,
    callback: (...args: any[]) => void,
  ) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = addresses as dns.LookupAddress[];
      const blocked = list.find((a) => isPrivateAddress(a.address));
      if (blocked)
        return callback(new PrivateAddressError(`${hostname} resolves to the private address ${blocked.address}`));
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  }) as typeof dns.lookup;
  return new Agent({ connections: 16, connect: { lookup } });
}
