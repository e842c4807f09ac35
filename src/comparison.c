/*-------------------------------------------------------------------------
 *
 * comparison.c
 *	  The time comparisons of the uuidv7 extension (uuid against timestamptz
 *	  with <, <=, >= and >, either way round), the bounds they compare with,
 *	  and the planner support that turns each into a comparison of uuids.
 *
 * Each comparison answers as one comparison of the key with a bound of the
 * instant (src/comparison.sql says which, and the SQL edition's functions
 * are those comparisons written out):
 *
 *	 id <  t   id <= uuidv7_last_before(t)
 *	 id <= t   id <= uuidv7_last_not_after(t)
 *	 id >  t   id >  uuidv7_last_not_after(t)
 *	 id >= t   id >= uuidv7_first_not_before(t), and no UUID for t past the
 *			   last millisecond 48 bits hold
 *
 * The C functions compare directly (operators.c's order), never raise an
 * error, and so are LEAKPROOF.  Their support function rewrites a call at
 * plan time into that comparison of uuids, which a btree or BRIN index on
 * the key serves and by which partitions on the key are pruned, with nothing
 * parsed: with the bound itself as a constant where the instant is one
 * (pruned at plan time), with the bound function's call where it is a
 * parameter or an expression (pruned at executor start).  For such an "id >=
 * t" the rewrite is "id >= uuidv7_first_not_before(t) AND id >
 * uuidv7_last_before(t)": the first gives the exact partition bound, the
 * second excludes every UUID past year 10889 without a filter on each row,
 * and the planner keeps only the tighter of two lower bounds of one column
 * in its estimate.
 *
 * These rewrites are exact, so they hold wherever the planner simplifies an
 * expression (a CHECK constraint too).  The constant bound that a lower bound
 * relative to now() also gets is added to queries only, before they are
 * planned (plantime.c).
 *
 * IDENTIFICATION
 *	  src/comparison.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "uuidv7.h"

/* the comparisons, in an order in which 3 - c is c's commutator */
typedef enum TimeComparison
{
	TIME_LT,
	TIME_LE,
	TIME_GE,
	TIME_GT
} TimeComparison;

static const char *const comparison_function_names[] = {
	[TIME_LT] = "uuidv7_time_lt",
	[TIME_LE] = "uuidv7_time_le",
	[TIME_GE] = "uuidv7_time_ge",
	[TIME_GT] = "uuidv7_time_gt",
};

/* the bounds of an instant the comparisons are made with */
typedef enum InstantBound
{
	FIRST_NOT_BEFORE,
	LAST_BEFORE,
	LAST_NOT_AFTER
} InstantBound;

static const char *const bound_function_names[] = {
	[FIRST_NOT_BEFORE] = "uuidv7_first_not_before",
	[LAST_BEFORE] = "uuidv7_last_before",
	[LAST_NOT_AFTER] = "uuidv7_last_not_after",
};

/* Set a bound of a placed instant. */
static void
set_bound(pg_uuid_t *uuid, InstantBound which, const InstantPlace *place)
{
	if (place->above_all)
	{
		/* past the last millisecond: no UUID is at or after it */
		if (which == FIRST_NOT_BEFORE)
			uuidv7_set_min_bound(uuid, UUIDV7_LAST_MS_TIMESTAMPTZ);
		else
			memset(uuid->data, 0xff, UUID_LEN);
		return;
	}
	*uuid = place->bound;
	if (which == LAST_BEFORE || (which == LAST_NOT_AFTER && !place->on_bound))
	{
		/* the UUID just below xxxxxxxx-xxxx-7000-8000-000000000000 */
		uuid->data[8] = 0x7f;
		memset(uuid->data + 9, 0xff, UUID_LEN - 9);
	}
}

static Datum
bound_datum(InstantBound which, TimestampTz ts)
{
	InstantPlace place;
	pg_uuid_t  *uuid = palloc(sizeof(pg_uuid_t));

	uuidv7_place_instant(&place, ts);
	set_bound(uuid, which, &place);
	return UUIDPGetDatum(uuid);
}

PG_FUNCTION_INFO_V1(uuidv7_first_not_before);
Datum
uuidv7_first_not_before(PG_FUNCTION_ARGS)
{
	return bound_datum(FIRST_NOT_BEFORE, PG_GETARG_TIMESTAMPTZ(0));
}

PG_FUNCTION_INFO_V1(uuidv7_last_before);
Datum
uuidv7_last_before(PG_FUNCTION_ARGS)
{
	return bound_datum(LAST_BEFORE, PG_GETARG_TIMESTAMPTZ(0));
}

PG_FUNCTION_INFO_V1(uuidv7_last_not_after);
Datum
uuidv7_last_not_after(PG_FUNCTION_ARGS)
{
	return bound_datum(LAST_NOT_AFTER, PG_GETARG_TIMESTAMPTZ(0));
}

static Expr *
uuid_comparison(Oid opno, Node *id, Node *bound)
{
	OpExpr	   *op = (OpExpr *) make_opclause(opno, BOOLOID, false, (Expr *) id, (Expr *) bound,
											  InvalidOid, InvalidOid);

	op->opfuncid = get_opcode(opno);
	return (Expr *) op;
}

static Node *
uuid_const(InstantBound which, TimestampTz ts)
{
	return (Node *) makeConst(UUIDOID, -1, InvalidOid, UUID_LEN, bound_datum(which, ts), false, false);
}

/* "key >= <the smallest UUID the comparisons place at or after ts>" */
Node *
uuidv7_at_or_after_const(Node *key, TimestampTz ts)
{
	return (Node *) uuid_comparison(UUID_GE_OPERATOR, key, uuid_const(FIRST_NOT_BEFORE, ts));
}

/*
 * The call of a bound function on an expression, or NULL where the schema of
 * the comparison has no such function (a partial install).
 */
static Node *
bound_call(InstantBound which, Oid nspid, Node *ts)
{
	Oid			argtype = TIMESTAMPTZOID;
	Oid			funcid;

	funcid = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid,
							 CStringGetDatum(bound_function_names[which]),
							 PointerGetDatum(buildoidvector(&argtype, 1)),
							 ObjectIdGetDatum(nspid));
	if (!OidIsValid(funcid))
		return NULL;
	return (Node *) makeFuncExpr(funcid, UUIDOID, list_make1(uuidv7_copy_node(ts)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/*
 * "id <comparison> ts" as comparisons of uuids, or NULL to leave the call as
 * it is.  Each of id and ts is evaluated as often as in the call, except
 * that an "id >= ts" whose operands are plain expressions (neither volatile
 * nor with a subquery) compares id with two bounds of ts.
 */
static Node *
simplify_time_comparison(TimeComparison comparison, Node *id, Node *ts, Oid nspid)
{
	bool		lower = (comparison == TIME_GE || comparison == TIME_GT);
	bool		inclusive = (comparison == TIME_LE || comparison == TIME_GE);
	Node	   *first;
	Node	   *last_before;

	if (IsA(ts, Const))
	{
		TimestampTz t = DatumGetTimestampTz(((Const *) ts)->constvalue);

		if (((Const *) ts)->constisnull)
			return NULL;
		if (!lower)
			return (Node *) uuid_comparison(UUID_LE_OPERATOR, id,
											uuid_const(inclusive ? LAST_NOT_AFTER : LAST_BEFORE, t));
		if (!inclusive)
			return (Node *) uuid_comparison(UUID_GT_OPERATOR, id, uuid_const(LAST_NOT_AFTER, t));
		if (t > UUIDV7_LAST_MS_TIMESTAMPTZ)
			return (Node *) uuid_comparison(UUID_GT_OPERATOR, id, uuid_const(LAST_BEFORE, t));
		return (Node *) uuid_comparison(UUID_GE_OPERATOR, id, uuid_const(FIRST_NOT_BEFORE, t));
	}

	/* (a bound call evaluates ts when a scan starts, not on every row) */
	if (contain_volatile_functions(ts))
		return NULL;

	if (!lower || !inclusive)
	{
		InstantBound which = (lower || inclusive) ? LAST_NOT_AFTER : LAST_BEFORE;
		Node	   *bound = bound_call(which, nspid, ts);

		if (bound == NULL)
			return NULL;
		return (Node *) uuid_comparison(lower ? UUID_GT_OPERATOR : UUID_LE_OPERATOR, id, bound);
	}

	last_before = bound_call(LAST_BEFORE, nspid, ts);
	if (last_before == NULL)
		return NULL;
	if (contain_volatile_functions(id) || contain_subplans(id) || contain_subplans(ts))
		return (Node *) uuid_comparison(UUID_GT_OPERATOR, id, last_before);
	first = bound_call(FIRST_NOT_BEFORE, nspid, ts);
	if (first == NULL)
		return NULL;
	return (Node *) make_andclause(list_make2(uuid_comparison(UUID_GE_OPERATOR, id, first),
											  uuid_comparison(UUID_GT_OPERATOR, uuidv7_copy_node(id), last_before)));
}

/*
 * The support function of the time comparisons: SupportRequestSimplify
 * turns a call into comparisons of uuids (above).
 */
PG_FUNCTION_INFO_V1(uuidv7_time_support);
Datum
uuidv7_time_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	FuncExpr   *call;
	char	   *name;
	int			comparison;
	Node	   *id;
	Node	   *ts;

	if (!IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(NULL);
	call = ((SupportRequestSimplify *) rawreq)->fcall;
	if (list_length(call->args) != 2 || call->funcresulttype != BOOLOID)
		PG_RETURN_POINTER(NULL);
	name = get_func_name(call->funcid);
	if (name == NULL)
		PG_RETURN_POINTER(NULL);
	for (comparison = TIME_LT; comparison <= TIME_GT; comparison++)
		if (strcmp(name, comparison_function_names[comparison]) == 0)
			break;
	if (comparison > TIME_GT)
		PG_RETURN_POINTER(NULL);

	/* the key on the left: "ts < id" is "id > ts" */
	id = linitial(call->args);
	ts = lsecond(call->args);
	if (getBaseType(exprType(id)) == TIMESTAMPTZOID)
	{
		id = lsecond(call->args);
		ts = linitial(call->args);
		comparison = TIME_GT - comparison;
	}
	/* (only the functions it was made for: one of each type) */
	if (getBaseType(exprType(id)) != UUIDOID || getBaseType(exprType(ts)) != TIMESTAMPTZOID)
		PG_RETURN_POINTER(NULL);

	PG_RETURN_POINTER(simplify_time_comparison((TimeComparison) comparison, id, ts, get_func_namespace(call->funcid)));
}
