// The S3 stand-in of scripts/cluster.ts in a process of its own (so its CPU time is counted apart):
// s3rver on 127.0.0.1:PORT with the bucket `esign`, files under DIR.   usage: s3-standin.ts PORT DIR
import './require-node24.ts';
import S3rver from 's3rver';

const [port, directory] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: Number(port),
  silent: true,
  directory,
  configureBuckets: [{ name: 'esign', configs: [] }],
});
await server.run();
process.once('SIGTERM', () => server.close().then(() => process.exit(0)));
