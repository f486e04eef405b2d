// Texts of the contract centre (issue 29), in both languages.
import { CENTRE_ZIP_KEEP_DAYS } from '#contract/calls/centre.ts';
import { countOf } from '#contract/plural.ts';

export const CT = {
  contractNotFound: {
    en: 'a selected contract was not found, or is not one of this account’s',
    zh: '所选合同不存在，或不属于当前账号',
  },
  tagNotFound: { en: 'the tag was not found', zh: '标签不存在' },
  folderNotFound: { en: 'the folder was not found', zh: '文件夹不存在' },
  viewNotFound: { en: 'the saved view was not found', zh: '保存的视图不存在' },
  zipNotFound: { en: 'the download was not found', zh: '下载文件不存在' },
  zipNotReady: { en: 'the download is still being prepared', zh: '下载文件仍在生成中' },
  zipExpired: {
    en: `the download was kept for ${countOf(CENTRE_ZIP_KEEP_DAYS, 'day', 'days')} and has been removed: select the contracts and download again`,
    zh: `下载文件已保留 ${CENTRE_ZIP_KEEP_DAYS} 天并已删除，请重新选择合同后下载`,
  },
  tagNameTaken: { en: 'a tag of this name exists already', zh: '已有同名标签' },
  folderNameTaken: { en: 'a folder of this name exists already', zh: '已有同名文件夹' },
  viewNameTaken: { en: 'a view of this name exists already', zh: '已有同名视图' },
  badDateRange: { en: 'the start date is after the end date', zh: '开始日期晚于结束日期' },
};
