#!/usr/bin/env bash
# test/shell/alerts.sh: the Prometheus alerting rules of
# docs/monitoring/alerts.yml, with Debian's promtool: they load (promtool
# check rules), and each fires on the series test/data/alerts_test.yml
# gives it to fire on, at the time it should, with its labels and
# annotations, and stays quiet on the others (promtool test rules).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
ensure_packages prometheus

promtool check rules "$TOP/docs/monitoring/alerts.yml"
(cd "$TOP/test/data" && promtool test rules alerts_test.yml)
