/*-------------------------------------------------------------------------
 *
 * partitions.c
 *	  The partitions of a table range-partitioned on a uuid key, read from
 *	  its partition descriptor.
 *
 * Every upkeep call and the doctor list a table's partitions with their
 * bounds.  Deparsing each partition's bound expression costs a catalog
 * lookup and a parse per partition; the partition descriptor the planner
 * keeps in the relation cache already holds the bounds, sorted and as
 * datums.  Partitions being detached (DETACH CONCURRENTLY) are listed: they
 * still hold their range.
 *
 * IDENTIFICATION
 *	  src/partitions.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "uuidv7.h"

/* partitions being detached are in the descriptor too (14 and later) */
#if PG_VERSION_NUM >= 140000
#define partition_desc_with_detached(rel) RelationGetPartitionDesc(rel, false)
#else
#define partition_desc_with_detached(rel) RelationGetPartitionDesc(rel)
#endif

/* a partition and its bounds (none: MINVALUE, MAXVALUE or DEFAULT) */
typedef struct PartitionRow
{
	Oid			partition;
	bool		has_lower;
	bool		has_upper;
	pg_uuid_t	lower;
	pg_uuid_t	upper;
} PartitionRow;

typedef struct PartitionRows
{
	int			nrows;
	int			next;
	PartitionRow *rows;
} PartitionRows;

/*
 * The check every partition function makes of its parent: range-partitioned
 * on a single column of uuid or of a domain over uuid (uuid7), else 42809.
 */
static void
check_partitioned_on_uuid(Relation rel)
{
	PartitionKey key = NULL;

	if (rel->rd_rel->relkind == RELKIND_PARTITIONED_TABLE)
		key = RelationGetPartitionKey(rel);
	if (key == NULL || key->strategy != PARTITION_STRATEGY_RANGE || key->partnatts != 1 ||
		key->partattrs[0] == 0 || getBaseType(key->parttypid[0]) != UUIDOID)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" is not range-partitioned on a single uuid column",
						RelationGetRelationName(rel)),
				 errhint("Partition it with PARTITION BY RANGE (id) on a uuid or uuid7 column.")));
}

/*
 * The partitions, in the order of their bounds, the DEFAULT partition last.
 * Datum i of a range descriptor's bounds is the upper bound of partition
 * indexes[i] (none: a gap), whose lower bound is datum i - 1.
 */
static PartitionRows *
read_partitions(Relation rel)
{
	PartitionDesc partdesc = partition_desc_with_detached(rel);
	PartitionBoundInfo bound = partdesc->boundinfo;
	PartitionRows *result = palloc0(sizeof(PartitionRows));

	result->rows = palloc0(sizeof(PartitionRow) * Max(partdesc->nparts, 1));
	if (bound == NULL)
		return result;
	for (int i = 1; i < bound->ndatums; i++)
	{
		PartitionRow *row;

		if (bound->indexes[i] < 0)
			continue;
		row = &result->rows[result->nrows++];
		row->partition = partdesc->oids[bound->indexes[i]];
		row->has_lower = bound->kind[i - 1][0] == PARTITION_RANGE_DATUM_VALUE;
		if (row->has_lower)
			row->lower = *DatumGetUUIDP(bound->datums[i - 1][0]);
		row->has_upper = bound->kind[i][0] == PARTITION_RANGE_DATUM_VALUE;
		if (row->has_upper)
			row->upper = *DatumGetUUIDP(bound->datums[i][0]);
	}
	if (partition_bound_has_default(bound))
		result->rows[result->nrows++].partition = partdesc->oids[bound->default_index];
	return result;
}

/* a bound's instant: NULL for none, or a bound that is not a UUIDv7 */
static Datum
bound_time(bool has_bound, const pg_uuid_t *bound, bool *isnull)
{
	*isnull = !has_bound || !uuidv7_is_v7(bound);
	if (*isnull)
		return (Datum) 0;
	return TimestampTzGetDatum(uuidv7_timestamptz_from_unix_ms(uuidv7_get_unix_ms(bound)));
}

/*
 * uuidv7_partitions(parent regclass): each partition with the period of time
 * its bounds stand for and its uuid bounds, as listed by read_partitions.
 */
PG_FUNCTION_INFO_V1(uuidv7_partitions);
Datum
uuidv7_partitions(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	PartitionRows *state;
	PartitionRow *row;
	Datum		values[5];
	bool		nulls[5];

	if (SRF_IS_FIRSTCALL())
	{
		Oid			parent = PG_GETARG_OID(0);
		MemoryContext old;
		TupleDesc	tupdesc;
		Relation	rel;

		funcctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		funcctx->tuple_desc = BlessTupleDesc(tupdesc);

		/* (the lock kept to the end of the transaction, as a query's) */
		rel = try_relation_open(parent, AccessShareLock);
		if (rel == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("relation with OID %u does not exist", parent)));
		check_partitioned_on_uuid(rel);
		funcctx->user_fctx = read_partitions(rel);
		relation_close(rel, NoLock);
		MemoryContextSwitchTo(old);
	}

	funcctx = SRF_PERCALL_SETUP();
	state = funcctx->user_fctx;
	if (state->next == state->nrows)
		SRF_RETURN_DONE(funcctx);
	row = &state->rows[state->next++];

	values[0] = ObjectIdGetDatum(row->partition);
	nulls[0] = false;
	values[1] = bound_time(row->has_lower, &row->lower, &nulls[1]);
	values[2] = bound_time(row->has_upper, &row->upper, &nulls[2]);
	values[3] = UUIDPGetDatum(&row->lower);
	nulls[3] = !row->has_lower;
	values[4] = UUIDPGetDatum(&row->upper);
	nulls[4] = !row->has_upper;
	SRF_RETURN_NEXT(funcctx,
					HeapTupleGetDatum(heap_form_tuple(funcctx->tuple_desc, values, nulls)));
}
