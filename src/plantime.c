/*-------------------------------------------------------------------------
 *
 * plantime.c
 *	  Lower bounds relative to now() made constant at plan time, so that a
 *	  range such as "the last hour" prunes a table's partitions when the
 *	  query is planned rather than when it starts.
 *
 * PostgreSQL prunes at plan time only by constants: "id >= now() - interval
 * '1 hour'" plans every partition, then prunes at executor start.  Where a
 * query compares a key as at or after an instant t that is now(),
 * current_timestamp or transaction_timestamp(), plus or minus constant
 * intervals (uuidv7's time comparisons, uuid >= t or t <= uuid, or core's
 * uuid comparisons with uuidv7_min(t)), a planner hook adds, before the query
 * is planned, "AND id >= <a constant>": the smallest UUIDv7 of the earliest
 * instant t can be in this transaction or any later one.  The condition as
 * written stays, so the answer is the same; the constant only lets the
 * planner drop the partitions before it.  Nothing else is touched: not
 * CHECK constraints, for instance, where PostgreSQL would take the constant
 * for a fact about every row.
 *
 * A plan may be kept and run again (prepared statements, PL/pgSQL, generic
 * plans).  now() is the start of the transaction, fixed within it; across
 * transactions it does not even only grow, as the system clock may step back
 * (a virtual machine resumed, an NTP step), so a plan that holds such a
 * constant serves the transaction that made it and no other: it depends on
 * an invalidation item of its own, which the end of that transaction fires
 * in this backend, and the plan cache plans again at its next use.  Within
 * the transaction the constant must be no later than what t is whatever the
 * session's TimeZone (SET may change it between two runs of the plan):
 *
 * - an interval's microseconds move t by exactly that much;
 * - its months, then its days, are each added on the session's clock, one
 *	 conversion from and back to UTC each: a month lasts 28 to 31 days, and
 *	 the offsets from UTC at the two ends of a conversion (any time zone: a
 *	 POSIX TimeZone string may give offsets up to 167:59:59 either way)
 *	 differ by less than 336 hours.  The constant takes the shortest months
 *	 and that margin for each conversion.
 *
 * Where the comparison could raise an error in this transaction (a step of
 * the expression out of the range of timestamps, or uuidv7_min() of an
 * instant past year 10889), nothing is added: the constant could leave no
 * partition to scan, and the error would not be raised.
 *
 * The hook works in sessions that have loaded the library: with uuidv7 in
 * shared_preload_libraries, in every session.
 *
 * IDENTIFICATION
 *	  src/plantime.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "common/int.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/planner.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "uuidv7.h"

/* functions fmgroids.h names only from PostgreSQL 14 on */
#ifndef F_TRANSACTION_TIMESTAMP
#define F_TRANSACTION_TIMESTAMP 2647
#endif
#ifndef F_INTERVAL_PL_TIMESTAMPTZ
#define F_INTERVAL_PL_TIMESTAMPTZ 2549
#endif

/* how far one count of days or months on a local clock can move an instant */
#define CALENDAR_MARGIN_USECS	(INT64CONST(336) * USECS_PER_HOUR)

/*
 * The C functions of uuidv7 (src/operators.c) behind comparisons that hold
 * only for a key at or after the instant: uuid >= and > timestamptz,
 * timestamptz <= and < uuid (uuidv7's operators and uuidv7_time_ops's,
 * 0.2.0's "<" included), and the lower bounds of an instant (src/bounds.c,
 * src/comparison.c).
 */
static const char *const at_or_after_symbols[] = {
	"uuidv7_ge_timestamptz", "uuidv7_gt_timestamptz", "timestamptz_le_uuidv7",
	"timestamptz_lt_uuidv7_0_3", "timestamptz_lt_uuidv7"
};
static const char *const lower_bound_symbols[] = {
	"uuidv7_min", "uuidv7_first_not_before"
};

/* (of these, the first raises an error past year 10889) */
#define RAISING_LOWER_BOUND 0

static planner_hook_type prev_planner_hook = NULL;

/*
 * The invalidation item of the plans that hold a plan-time bound: a hash of
 * the pg_proc cache that names no function's entry in particular (a
 * function whose entry it happens to match is planned again as well, which
 * costs a plan and changes no answer), and whether this transaction made
 * such a plan.
 */
#define PLAN_TIME_BOUND_HASH	((uint32) 0x75756964)
static bool plan_time_bound_planned = false;

/* The span an instant can take: its earliest and latest value. */
typedef struct InstantSpan
{
	TimestampTz earliest;
	TimestampTz latest;
} InstantSpan;

/*
 * Move a span by one count of months or days on a local clock (shortest and
 * longest: 28 and 31 days a month), plus the margin of its conversion; false
 * where an end leaves the range of timestamps, where PostgreSQL could raise
 * an error.
 */
static bool
shift_span(InstantSpan *span, int64 count, int64 shortest_days, int64 longest_days)
{
	int64		least;
	int64		most;

	if (count == 0)
		return true;
	if (pg_mul_s64_overflow(count, count > 0 ? shortest_days : longest_days, &least) ||
		pg_mul_s64_overflow(least, USECS_PER_DAY, &least) ||
		pg_sub_s64_overflow(least, CALENDAR_MARGIN_USECS, &least) ||
		pg_mul_s64_overflow(count, count > 0 ? longest_days : shortest_days, &most) ||
		pg_mul_s64_overflow(most, USECS_PER_DAY, &most) ||
		pg_add_s64_overflow(most, CALENDAR_MARGIN_USECS, &most) ||
		pg_add_s64_overflow(span->earliest, least, &span->earliest) ||
		pg_add_s64_overflow(span->latest, most, &span->latest))
		return false;
	return IS_VALID_TIMESTAMP(span->earliest) && IS_VALID_TIMESTAMP(span->latest);
}

/*
 * Add an interval (sign 1) or subtract it (sign -1) as PostgreSQL does:
 * months, then days, on the session's clock, then microseconds.
 */
static bool
add_interval(InstantSpan *span, const Interval *interval, int sign)
{
#ifdef INTERVAL_NOT_FINITE
	if (INTERVAL_NOT_FINITE(interval))
		return false;
#endif
	if (interval->time == PG_INT64_MIN ||
		!shift_span(span, (int64) interval->month * sign, 28, 31) ||
		!shift_span(span, (int64) interval->day * sign, 1, 1) ||
		pg_add_s64_overflow(span->earliest, interval->time * sign, &span->earliest) ||
		pg_add_s64_overflow(span->latest, interval->time * sign, &span->latest))
		return false;
	return IS_VALID_TIMESTAMP(span->earliest) && IS_VALID_TIMESTAMP(span->latest);
}

/*
 * If expr is now(), current_timestamp or transaction_timestamp(), plus or
 * minus constant intervals, set *span to the earliest and the latest value
 * it can take in this transaction, whatever its TimeZone, and return true;
 * false where it could raise an error.
 */
static bool
now_span(Node *expr, InstantSpan *span)
{
	if (IsA(expr, FuncExpr))
	{
		FuncExpr   *call = (FuncExpr *) expr;

		if ((call->funcid != F_NOW && call->funcid != F_TRANSACTION_TIMESTAMP) || call->args != NIL)
			return false;
		span->earliest = span->latest = GetCurrentTransactionStartTimestamp();
		return true;
	}
	if (IsA(expr, SQLValueFunction))
	{
		if (((SQLValueFunction *) expr)->op != SVFOP_CURRENT_TIMESTAMP)
			return false;
		span->earliest = span->latest = GetCurrentTransactionStartTimestamp();
		return true;
	}
	if (IsA(expr, OpExpr) && list_length(((OpExpr *) expr)->args) == 2)
	{
		OpExpr	   *op = (OpExpr *) expr;
		Oid			funcid = OidIsValid(op->opfuncid) ? op->opfuncid : get_opcode(op->opno);
		Node	   *ts = linitial(op->args);
		Node	   *interval = lsecond(op->args);
		int			sign = 1;

		if (funcid == F_TIMESTAMPTZ_MI_INTERVAL)
			sign = -1;
		else if (funcid == F_INTERVAL_PL_TIMESTAMPTZ)
		{
			ts = lsecond(op->args);
			interval = linitial(op->args);
		}
		else if (funcid != F_TIMESTAMPTZ_PL_INTERVAL)
			return false;
		if (!IsA(interval, Const) || ((Const *) interval)->constisnull || !now_span(ts, span))
			return false;
		return add_interval(span, DatumGetIntervalP(((Const *) interval)->constvalue), sign);
	}
	return false;
}

/*
 * Which of these symbols this function is, as one of uuidv7's C functions,
 * or -1.
 */
static int
uuidv7_function_symbol(Oid funcid, const char *const *symbols, int count)
{
	HeapTuple	tuple;
	int			found = -1;

	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tuple))
		return -1;
	if (((Form_pg_proc) GETSTRUCT(tuple))->prolang == ClanguageId)
	{
		char	   *symbol = TextDatumGetCString(SysCacheGetAttrNotNull(PROCOID, tuple, Anum_pg_proc_prosrc));
		bool		isnull;
		Datum		library = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_probin, &isnull);

		for (int i = 0; i < count && found < 0; i++)
			if (strcmp(symbol, symbols[i]) == 0)
				found = i;
		if (isnull || strstr(TextDatumGetCString(library), "uuidv7") == NULL)
			found = -1;
	}
	ReleaseSysCache(tuple);
	return found;
}

/*
 * If op compares a key as at or after an instant, set *key and *ts and return
 * true: "key >= ts" and its kin with uuidv7's time comparisons, "key >=
 * uuidv7_min(ts)" and its kin with core's uuid comparisons (*raises: whose
 * bound function raises an error for an instant past what a UUIDv7 holds).
 */
static bool
at_or_after_comparison(OpExpr *op, Node **key, Node **ts, bool *raises)
{
	Node	   *left;
	Node	   *right;
	Oid			left_type;
	Oid			right_type;
	int			bound_symbol;

	if (list_length(op->args) != 2)
		return false;
	left = linitial(op->args);
	right = lsecond(op->args);
	left_type = getBaseType(exprType(left));
	right_type = getBaseType(exprType(right));
	if ((left_type == UUIDOID && right_type == TIMESTAMPTZOID) ||
		(left_type == TIMESTAMPTZOID && right_type == UUIDOID))
	{
		*key = left_type == UUIDOID ? left : right;
		*ts = left_type == UUIDOID ? right : left;
		*raises = false;
		return uuidv7_function_symbol(OidIsValid(op->opfuncid) ? op->opfuncid : get_opcode(op->opno),
									  at_or_after_symbols, lengthof(at_or_after_symbols)) >= 0;
	}
	if (op->opno == UUID_GE_OPERATOR || op->opno == UUID_GT_OPERATOR)
		*key = left;
	else if (op->opno == UUID_LE_OPERATOR || op->opno == UUID_LT_OPERATOR)
	{
		*key = right;
		right = left;
	}
	else
		return false;
	if (!IsA(right, FuncExpr) || list_length(((FuncExpr *) right)->args) != 1 ||
		getBaseType(exprType(linitial(((FuncExpr *) right)->args))) != TIMESTAMPTZOID)
		return false;
	*ts = linitial(((FuncExpr *) right)->args);
	bound_symbol = uuidv7_function_symbol(((FuncExpr *) right)->funcid, lower_bound_symbols, lengthof(lower_bound_symbols));
	*raises = bound_symbol == RAISING_LOWER_BOUND;
	return bound_symbol >= 0;
}

/*
 * Whether op compares a key as at or after an instant relative to now() that
 * gets a plan-time bound, and the instant's span.  Not where the comparison
 * could raise an error, which the bound could spare it by leaving no row.
 */
static bool
gets_plan_time_bound(OpExpr *op, Node **key, InstantSpan *span)
{
	Node	   *ts;
	bool		raises;

	return at_or_after_comparison(op, key, &ts, &raises) && now_span(ts, span) &&
		span->earliest >= UUIDV7_MIN_TIMESTAMPTZ && span->earliest <= UUIDV7_LAST_MS_TIMESTAMPTZ &&
		(!raises || span->latest <= UUIDV7_LAST_MS_TIMESTAMPTZ) &&
		!contain_volatile_functions(*key) && !contain_subplans(*key);
}

/*
 * For a comparison of a key as at or after an instant relative to now(),
 * "key >= <the smallest UUIDv7 of the instant's earliest value>"; else NULL.
 */
static Node *
plan_time_bound(OpExpr *op)
{
	Node	   *key;
	InstantSpan span;

	if (!gets_plan_time_bound(op, &key, &span))
		return NULL;
	return uuidv7_at_or_after_const(uuidv7_copy_node(key), span.earliest);
}

static Node *
add_plan_time_bounds(Node *node, void *context)
{
	if (node == NULL)
		return NULL;
	if (IsA(node, Query))
		return (Node *) query_tree_mutator((Query *) node, add_plan_time_bounds, context, 0);
	node = expression_tree_mutator(node, add_plan_time_bounds, context);
	if (IsA(node, OpExpr))
	{
		Node	   *bound = plan_time_bound((OpExpr *) node);

		if (bound != NULL)
			return (Node *) make_andclause(list_make2(node, bound));
	}
	return node;
}

/* Does the query hold a comparison that gets a plan-time bound? */
static bool
has_plan_time_bound(Node *node, void *context)
{
	Node	   *key;
	InstantSpan span;

	if (node == NULL)
		return false;
	if (IsA(node, Query))
		return query_tree_walker((Query *) node, has_plan_time_bound, context, 0);
	if (IsA(node, OpExpr) && gets_plan_time_bound((OpExpr *) node, &key, &span))
		return true;
	return expression_tree_walker(node, has_plan_time_bound, context);
}

static PlannedStmt *
uuidv7_planner(UUIDV7_PLANNER_ARGS)
{
	PlannedStmt *plan;
	PlanInvalItem *item;

	if (!has_plan_time_bound((Node *) parse, NULL))
	{
		if (prev_planner_hook)
			return prev_planner_hook(UUIDV7_PLANNER_PASS);
		return standard_planner(UUIDV7_PLANNER_PASS);
	}
	parse = query_tree_mutator(parse, add_plan_time_bounds, NULL, QTW_DONT_COPY_QUERY);
	if (prev_planner_hook)
		plan = prev_planner_hook(UUIDV7_PLANNER_PASS);
	else
		plan = standard_planner(UUIDV7_PLANNER_PASS);
	/* the plan serves this transaction only: plan_time_bounds_expire */
	item = makeNode(PlanInvalItem);
	item->cacheId = PROCOID;
	item->hashValue = PLAN_TIME_BOUND_HASH;
	plan->invalItems = lappend(plan->invalItems, item);
	plan_time_bound_planned = true;
	return plan;
}

/*
 * At the end of a transaction that planned with a plan-time bound, the plans
 * that hold one are invalidated, in this backend only (the plan cache is
 * local): the next transaction's now() may be earlier.
 */
static void
plan_time_bounds_expire(XactEvent event, void *arg pg_attribute_unused())
{
	if (!plan_time_bound_planned)
		return;
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PREPARE)
	{
		plan_time_bound_planned = false;
		CallSyscacheCallbacks(PROCOID, PLAN_TIME_BOUND_HASH);
	}
}

/* Install the planner hook and the end of transaction's callback (from _PG_init). */
void
uuidv7_plantime_init(void)
{
	prev_planner_hook = planner_hook;
	planner_hook = uuidv7_planner;
	RegisterXactCallback(plan_time_bounds_expire, NULL);
}
