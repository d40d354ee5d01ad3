// uPlot for time series and bars (overview, sync history, quick chart)
export { default as uPlot } from 'uplot';
