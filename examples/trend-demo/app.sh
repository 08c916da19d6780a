#!/bin/sh
# A synthetic series of versions of one implementation, for the trend demo:
# "version" $VERSUS_DEMO_VERSION of an app that gzips its input. From
# version 6 on it does extra work first (a 25 ms sleep), the kind of step a
# refactoring can bring; `versus trend` should find it there.
if [ "$1" = "--version" ]; then
  echo "app 1.${VERSUS_DEMO_VERSION:-1}"
  exit 0
fi
if [ "${VERSUS_DEMO_VERSION:-1}" -ge 6 ]; then
  sleep 0.025
fi
exec gzip -c "$1"
