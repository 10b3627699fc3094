/**
 * Opt-in demo: a fake patent office and docket system on loopback, with demo data.
 *   npx tsx scripts/fake-offices.ts [officePort=4300] [docketPort=4400]
 * then start the server with the environment lines it prints.
 */
import { DEMO_CUSTOMER_NUMBERS, DEMO_KEYS, startDemoServers } from "../upstream/src/patent-office/demo";

const officePort = Number(process.argv[2] ?? 4300);
const docketPort = Number(process.argv[3] ?? 4400);
const { office, docket } = await startDemoServers({ office: officePort, docket: docketPort });
console.log(`USPTO_API_URL=${office.url} USPTO_API_KEY=${DEMO_KEYS.office} USPTO_CUSTOMER_NUMBERS=${DEMO_CUSTOMER_NUMBERS.join(",")} \\
FIP_API_URL=${docket.url} FIP_API_KEY=${DEMO_KEYS.docket} FIP_MATTER_URL='https://fip.example.com/matters/{id}'`);
const stop = () => void Promise.all([office.close(), docket.close()]).then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
