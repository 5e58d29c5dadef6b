#!/usr/bin/env bash
# A real gitolite 3 over ssh on 127.0.0.1 for `npm run test:hosts`.
#   gitolite.sh start <dir>   installs gitolite3 and openssh-server when missing (root, apt), creates a
#                             gitolite user whose home is <dir>/home, runs `gitolite setup` with an admin key,
#                             enables repo-specific hooks (LOCAL_CODE=$HOME/local), starts sshd on a free
#                             loopback port with its own config, and prints `key=value` lines.
#   gitolite.sh stop <dir>    stops that sshd and removes the user (the caller removes <dir>).
# Exit 77 with a reason on stderr when it cannot run here (not root, no apt-get): the tests then skip.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?a directory}

skip() {
  echo "gitolite.sh: cannot set up gitolite here: $*" >&2
  exit 77
}

if [ "$cmd" = stop ]; then
  if [ -f "$dir/sshd.pid" ]; then kill "$(cat "$dir/sshd.pid")" 2>/dev/null || true; fi
  if [ -f "$dir/user" ]; then userdel "$(cat "$dir/user")" 2>/dev/null || true; fi
  exit 0
fi

[ "$(id -u)" = 0 ] || skip "it needs root (to install packages, add a user and run sshd); run as root or on CI"
if ! command -v gitolite >/dev/null 2>&1 || [ ! -x /usr/sbin/sshd ]; then
  command -v apt-get >/dev/null 2>&1 || skip "gitolite3/openssh-server are missing and there is no apt-get"
  export DEBIAN_FRONTEND=noninteractive
  # gitolite3 asks for an admin key at install: none (this script runs `gitolite setup` itself)
  echo "gitolite3 gitolite3/adminkey string" | debconf-set-selections 2>/dev/null || true
  apt-get install -y -q --no-install-recommends gitolite3 openssh-server >&2 ||
    { apt-get update -q >&2 && apt-get install -y -q --no-install-recommends gitolite3 openssh-server >&2; } ||
    skip "apt-get could not install gitolite3 openssh-server"
fi

mkdir -p "$dir"
chmod 755 "$dir"
user="ghgl$$"
home="$dir/home"
useradd --home-dir "$home" --create-home --shell /bin/sh "$user"
echo "$user" >"$dir/user"
# an account without a password is "locked" to sshd; '*' opens it to keys only
usermod -p '*' "$user"
uid=$(id -u "$user")
gid=$(id -g "$user")

ssh-keygen -q -t ed25519 -N '' -f "$dir/admin" -C admin
cp "$dir/admin.pub" "$home/admin.pub"
chown "$user:" "$home/admin.pub"
as_git() { setpriv --reuid="$uid" --regid="$gid" --init-groups env -i HOME="$home" PATH="$PATH" LC_ALL=C sh -c "cd; $1"; }
as_git "gitolite setup -pk admin.pub >/dev/null"
# repo-specific hooks, with their code under ~/local (gitolite's rc, as its documentation says to edit it)
as_git "sed -i -e \"s|^\\( *\\)# *'repo-specific-hooks',|\\1'repo-specific-hooks',|\" -e \"s|^\\( *\\)# *LOCAL_CODE *=> *\\\"\\\$ENV{HOME}/local\\\",|\\1LOCAL_CODE => \\\"\\\$ENV{HOME}/local\\\",|\" .gitolite.rc && mkdir -p local/hooks/repo-specific"
grep -q "^ *'repo-specific-hooks'," "$home/.gitolite.rc" || { echo "gitolite.sh: could not enable repo-specific-hooks" >&2; exit 1; }
grep -q '^ *LOCAL_CODE => "$ENV{HOME}/local",' "$home/.gitolite.rc" || { echo "gitolite.sh: could not set LOCAL_CODE" >&2; exit 1; }

mkdir -p /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
node_dir=$(dirname "$(command -v node)")
cat >"$dir/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
PidFile $dir/sshd.pid
AuthorizedKeysFile .ssh/authorized_keys
AllowUsers $user
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
UsePAM no
StrictModes no
PermitRootLogin no
# the hooks run node (git-handoff): where this machine has it
SetEnv PATH=$node_dir:/usr/local/bin:/usr/bin:/bin
LogLevel ERROR
EOF
/usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log"
for _ in $(seq 1 100); do [ -s "$dir/sshd.pid" ] && break; sleep 0.05; done
[ -s "$dir/sshd.pid" ] || { cat "$dir/sshd.log" >&2; exit 1; }

echo "user=$user"
echo "uid=$uid"
echo "gid=$gid"
echo "home=$home"
echo "port=$port"
echo "adminKey=$dir/admin"
echo "gitolite=$(gitolite --version 2>/dev/null || dpkg-query -W -f='${Version}' gitolite3)"
