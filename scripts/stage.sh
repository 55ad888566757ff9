#!/bin/sh
# Runs one stage of `make test` and says how long it took, so that where the quarter of an
# hour goes is in every log (and the closing notes can quote it). Usage: stage.sh NAME CMD...
name=$1
shift
start=$(date +%s)
"$@"
status=$?
echo "make test: $name took $(($(date +%s) - start)) s$([ $status -eq 0 ] || echo ", and failed ($status)")"
exit $status
