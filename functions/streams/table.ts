import { commentRemoval } from '#lib/reactions/comment-removal.ts';
import { postRemoval } from '#lib/reactions/post-removal.ts';
import { searchIndexing } from '#lib/search/indexing.ts';
import { streamConsumer } from '#lib/streams/consumer.ts';

/**
 * The table's DynamoDB stream (NEW_AND_OLD_IMAGES): each record is offered to these reactions in
 * turn, in the order of its shard (lib/streams/consumer.ts); a failed record is reported as the
 * batch's item failure, so Lambda retries from it.
 */
export const handler = streamConsumer([postRemoval, commentRemoval, searchIndexing]);
