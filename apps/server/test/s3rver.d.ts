/** Minimal types for `s3rver` (a fake S3 server for tests; the package ships none). */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  export type S3rverOptions = {
    port?: number;
    address?: string;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    configureBuckets?: Array<{ name: string; configs?: Array<string | Buffer> }>;
  };
  export default class S3rver {
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
