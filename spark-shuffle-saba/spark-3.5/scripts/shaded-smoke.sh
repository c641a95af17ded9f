#!/usr/bin/env bash
# Checks the shaded jar against Spark's real dependency set (protobuf 3.19, Guava 16, Jackson 2.15 for 3.5.3):
# a class path of spark-core's own dependencies plus the shaded jar, nothing else of ours.
# Usage (after `mvn -B -ntp -pl spark-shuffle-saba/spark-3.5 -am package -DskipTests`):
#   spark-shuffle-saba/spark-3.5/scripts/shaded-smoke.sh
# Expect: "registered local-… (workload 'shaded-smoke' …)", "SMOKE keys=10", "… deregistered".
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$here/../target/saba-spark-3.5_2.12-0.1.0-SNAPSHOT-shaded.jar"
[[ -f "$jar" ]] || { echo "build the shaded jar first: $jar" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/pom.xml" <<'POM'
<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>smoke</groupId><artifactId>spark-classpath</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.apache.spark</groupId><artifactId>spark-core_2.12</artifactId><version>3.5.3</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j2-impl</artifactId><version>2.20.0</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.7</version></dependency>
  </dependencies>
</project>
POM
(cd "$work" && mvn -B -ntp -q dependency:build-classpath -Dmdep.outputFile="$work/cp.txt")
cp="$(cat "$work/cp.txt")"
javac -d "$work" -cp "$cp" "$here/ShadedSmoke.java"
cat > "$work/log4j2.properties" <<'LOG'
rootLogger.level = warn
rootLogger.appenderRef.stdout.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %p %c{1}: %m%n
logger.saba.name = org.apache.spark.shuffle.saba
logger.saba.level = info
LOG
java --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED \
     --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
     --add-opens=java.base/java.util=ALL-UNNAMED -Dlog4j2.configurationFile="$work/log4j2.properties" \
     -cp "$work:$jar:$cp" ShadedSmoke
