# Sourced by scripts/build.sh and scripts/test.sh: compile through ccache (installed by setup.sh)
# with paths taken relative to this checkout, so that another checkout of the same commit on the
# same machine (CI's fresh clone after a session) reuses the objects instead of building again.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-true}"   # -g output does not pin the cache to one folder
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-12G}"        # two builds (gcc and clang with sanitizers)
