/** Task `childcare-report`: a prepared report job rendered to its file (PDF with pdfkit, or HTML). */
import { renderReport, type ReportJob } from '../../engine/childcare/report/report.js';

export async function childcareReportTask(job: ReportJob): Promise<Uint8Array> {
  return renderReport(job);
}
