/** Removing a stage's kept bucket, with the S3 client faked at its boundary. */
import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
import { mockAwsClient } from '../../../tools/aws-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyAndDeleteBucket } from './bucket';

const s3 = mockAwsClient(S3Client);
afterEach(() => s3.reset());

describe('emptyAndDeleteBucket', () => {
  it('deletes every object page by page, then the bucket', async () => {
    s3.on(ListObjectVersionsCommand, { Bucket: 'site', KeyMarker: undefined })
      .resolves({
        IsTruncated: true,
        NextKeyMarker: 'b',
        NextVersionIdMarker: 'null',
        Versions: [
          { Key: 'a', VersionId: 'null' },
          { Key: 'b', VersionId: 'null' },
        ],
      })
      .on(ListObjectVersionsCommand, { Bucket: 'site', KeyMarker: 'b' })
      .resolves({ IsTruncated: false, Versions: [{ Key: 'c', VersionId: 'null' }], DeleteMarkers: [{ Key: 'd', VersionId: 'v1' }] });
    s3.on(DeleteObjectsCommand).resolves({});
    s3.on(DeleteBucketCommand).resolves({});

    expect(await emptyAndDeleteBucket('site', new S3Client({ region: 'eu-west-1' }))).toBe(4);
    const deletes = s3.commandCalls(DeleteObjectsCommand).map((call) => call.args[0].input.Delete!.Objects!.map((o) => o.Key));
    expect(deletes).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(s3.commandCalls(DeleteBucketCommand)).toHaveLength(1);
    // The bucket goes only after its last object.
    expect(s3.calls().at(-1)!.args[0]).toBeInstanceOf(DeleteBucketCommand);
  });

  it('accepts a bucket that is already gone', async () => {
    s3.on(ListObjectVersionsCommand).rejects(Object.assign(new Error('The specified bucket does not exist'), { name: 'NoSuchBucket' }));
    expect(await emptyAndDeleteBucket('gone', new S3Client({ region: 'eu-west-1' }))).toBe(0);
  });

  it('stops, keeping the bucket, when an object cannot be deleted', async () => {
    s3.on(ListObjectVersionsCommand).resolves({ IsTruncated: false, Versions: [{ Key: 'a', VersionId: 'null' }] });
    s3.on(DeleteObjectsCommand).resolves({ Errors: [{ Key: 'a', Message: 'Access Denied' }] });
    await expect(emptyAndDeleteBucket('site', new S3Client({ region: 'eu-west-1' }))).rejects.toThrow(/Access Denied/);
    expect(s3.commandCalls(DeleteBucketCommand)).toHaveLength(0);
  });
});
